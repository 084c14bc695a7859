-- TPC-H Q11, important stock identification. Validation parameters: NATION = GERMANY,
-- FRACTION = 0.0001 (the SF 1 value, used at every scale factor). "value" is quoted: it is a
-- reserved word.
select
    ps_partkey,
    sum(ps_supplycost * ps_availqty) as "value"
from
    partsupp,
    supplier,
    nation
where
    ps_suppkey = s_suppkey
    and s_nationkey = n_nationkey
    and n_name = 'GERMANY'
group by
    ps_partkey
having
    sum(ps_supplycost * ps_availqty) > (
        select
            sum(ps_supplycost * ps_availqty) * 0.0001000000
        from
            partsupp,
            supplier,
            nation
        where
            ps_suppkey = s_suppkey
            and s_nationkey = n_nationkey
            and n_name = 'GERMANY'
    )
order by
    "value" desc
