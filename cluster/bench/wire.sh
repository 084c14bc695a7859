#!/usr/bin/env bash
# Bytes on the wire and exchange times of a 3-node loopback cluster over Arrow Flight, UCX and
# UCX with compression (docs/benchmarks.md). Usage: cluster/bench/wire.sh SF [WORKDIR]
# Loads TPC-H lineitem and orders once (lineitem hashed on l_partkey, so that lineitem x orders
# on the order key is not co-located and both sides travel to the coordinator), then restarts
# the nodes on the same data with each transport and runs EXPLAIN ANALYZE of each query.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sf="${1:?scale factor}"
work="${2:-$root/data/bench-wire-sf$sf}"
warpdb="$root/warpdb"
mkdir -p "$work"
[[ -f "$work/tbl/lineitem.tbl" ]] || "$warpdb" tpch gen --sf "$sf" --out "$work/tbl" > /dev/null

members="n1=127.0.0.1:7111:7211:7311, n2=127.0.0.1:7112:7212:7312, n3=127.0.0.1:7113:7213:7313"
pids=()
start() { # $1: extra configuration lines
    pids=()
    for n in 1 2 3; do
        printf 'node.id = n%s\ndata.dir = n%s\nmembers = %s\n%b' "$n" "$n" "$members" "$1" > "$work/n$n.properties"
        JAVA_OPTS="-Xmx2g" "$warpdb" node --config "$work/n$n.properties" > "$work/n$n.log" 2> "$work/n$n.err" &
        pids+=($!)
    done
    for n in 1 2 3; do
        until grep -q "^WarpDB node" "$work/n$n.log" 2> /dev/null; do sleep 1; done
    done
    head -1 "$work/n2.log"
}
stop() {
    for pid in "${pids[@]}"; do kill "$pid"; done
    for pid in "${pids[@]}"; do wait "$pid" || true; done
}
sql() { "$warpdb" sql -u jdbc:warpdb:remote:http://127.0.0.1:7312 --outputformat=csv "$@" 2> /dev/null; }

if [[ ! -d "$work/n1" ]]; then
    start ""
    sql -e "CREATE TABLE orders (o_orderkey BIGINT NOT NULL, o_custkey INTEGER NOT NULL, o_orderstatus CHAR(1) NOT NULL,
          o_totalprice DECIMAL(15,2) NOT NULL, o_orderdate DATE NOT NULL, o_orderpriority CHAR(15) NOT NULL,
          o_clerk CHAR(15) NOT NULL, o_shippriority INTEGER NOT NULL, o_comment VARCHAR(79) NOT NULL)
          WITH (distribution = 'hash(o_orderkey)')" \
        -e "CREATE TABLE lineitem (l_orderkey BIGINT NOT NULL, l_partkey INTEGER NOT NULL, l_suppkey INTEGER NOT NULL,
          l_linenumber INTEGER NOT NULL, l_quantity DECIMAL(15,2) NOT NULL, l_extendedprice DECIMAL(15,2) NOT NULL,
          l_discount DECIMAL(15,2) NOT NULL, l_tax DECIMAL(15,2) NOT NULL, l_returnflag CHAR(1) NOT NULL,
          l_linestatus CHAR(1) NOT NULL, l_shipdate DATE NOT NULL, l_commitdate DATE NOT NULL, l_receiptdate DATE NOT NULL,
          l_shipinstruct CHAR(25) NOT NULL, l_shipmode CHAR(10) NOT NULL, l_comment VARCHAR(44) NOT NULL)
          WITH (distribution = 'hash(l_partkey)')" \
        -e "COPY orders FROM '$work/tbl/orders.tbl'" -e "COPY lineitem FROM '$work/tbl/lineitem.tbl'" > /dev/null
    stop
fi

join="SELECT o_orderpriority, COUNT(*) FROM lineitem JOIN orders ON l_orderkey = o_orderkey GROUP BY o_orderpriority"
fetch="SELECT * FROM lineitem ORDER BY l_orderkey, l_linenumber LIMIT 1"
for setting in "transport = flight" "transport = ucx\nwire.compression = none" "transport = ucx\nwire.compression = auto"; do
    echo "== $setting" | tr '\n' ' '; echo
    start "$setting\n"
    for query in "$join" "$fetch"; do
        for run in 1 2 3; do
            echo "-- run $run: $query"
            sql -e "EXPLAIN ANALYZE $query" | grep -E "Exchange|Coordinator on"
        done
    done
    stop
done
