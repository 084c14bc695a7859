#!/usr/bin/env bash
# TPC-H on a cluster of NODES node processes on this machine, timed next to one in-process WarpDB
# and DuckDB on the same data, every answer checked against DuckDB's (docs/benchmarks.md).
# Usage: cluster/bench/tpch.sh NODES SF [EXECUTOR] [WORKDIR] [-- more tpch bench options]
#   EXECUTOR: cpu (default), gpu or auto, for the one node and the cluster's nodes alike.
#   WARPDB: the launcher (default: the repository's ./warpdb; on a GPU host, e.g.
#           "bash .gpu-bundle/run.sh main io.warpdb.tools.WarpCli").
#   NODE_OPTS / BENCH_OPTS: JVM options of the nodes / of the bench process (JAVA_OPTS of each).
#   NODE_SETTINGS: more lines of every node's properties (e.g. 'transport = ucx\n').
#   GPU_PER_NODE=1: node n uses GPU n-1 only (gpu.devices), one node per GPU on a host of several.
#   ONE_NODE_DATA: the one in-process WarpDB's durable database directory (loaded by `warpdb tpch load`
#           or on first use, then kept), instead of an in-memory one loaded on every run.
#   LOAD_ONLY=1: only load the tables the cluster lacks (`warpdb tpch load --cluster`), then stop the nodes.
# The .tbl files and the nodes' databases stay in WORKDIR, so a second run skips generating and
# loading (the cluster's tables are loaded by COPY only where they are missing or empty).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
nodes="${1:?number of nodes}"
sf="${2:?scale factor}"
executor="${3:-cpu}"
work="${4:-$root/data/bench-cluster-tpch-sf$sf}"
shift $(( $# < 4 ? $# : 4 ))
[[ "${1:-}" == "--" ]] && shift
read -r -a warpdb <<< "${WARPDB:-$root/warpdb}"
mkdir -p "$work"
[[ -f "$work/tbl/lineitem.tbl" ]] || "${warpdb[@]}" tpch gen --sf "$sf" --out "$work/tbl" > /dev/null

members=""
for n in $(seq 1 "$nodes"); do
    members+="${members:+, }n$n=127.0.0.1:$((7500 + n)):$((7600 + n)):$((7700 + n))"
done
pids=()
stop() {
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
}
trap stop EXIT
for n in $(seq 1 "$nodes"); do
    printf 'node.id = n%s\ndata.dir = n%s\nmembers = %s\n%b' "$n" "$n" "$members" "${NODE_SETTINGS:-}" > "$work/n$n.properties"
    [[ "${GPU_PER_NODE:-}" == 1 ]] && printf 'gpu.devices = %s\n' "$((n - 1))" >> "$work/n$n.properties"
    JAVA_OPTS="${NODE_OPTS:-}" "${warpdb[@]}" node --config "$work/n$n.properties" > "$work/n$n.log" 2> "$work/n$n.err" &
    pids+=($!)
done
for n in $(seq 1 "$nodes"); do
    until grep -q "^WarpDB node" "$work/n$n.log" 2> /dev/null; do
        kill -0 "${pids[$((n - 1))]}" 2> /dev/null || { echo "node n$n stopped:"; tail -20 "$work/n$n.err"; exit 1; }
        sleep 1
    done
done
head -1 "$work/n1.log"
url="jdbc:warpdb:remote:http://127.0.0.1:7701"
if [[ "${LOAD_ONLY:-}" == 1 ]]; then
    JAVA_OPTS="${BENCH_OPTS:-}" "${warpdb[@]}" tpch load --sf "$sf" --tbl "$work/tbl" --cluster "$url"
    exit
fi
one_node=(--in-memory)
[[ -n "${ONE_NODE_DATA:-}" ]] && one_node=(--data "$ONE_NODE_DATA")
JAVA_OPTS="${BENCH_OPTS:-}" "${warpdb[@]}" tpch bench --sf "$sf" "${one_node[@]}" --tbl "$work/tbl" --executor "$executor" \
    --cluster "$url" "$@"
