#!/usr/bin/env bash
# Packs the warpdb CLI (module tools, with DuckDB for answers and comparison) for a GPU host
# that has no Java and no Maven: ../shared/gpu/bundle.sh writes .gpu-bundle (classes and jars)
# and .gpu-jre (a trimmed runtime). DuckDB's jar carries natives for four platforms (~80 MB)
# and JCuda's a PTX compiler binding WarpDB does not use; both are swapped for slimmer copies,
# and the JUnit launcher, arrow-dataset (Parquet loading) and the Flight SQL JDBC driver are left out (`run.sh tests`
# and the Flight SQL clients are not for this bundle). What is still over the 64 MiB one call carries goes to
# .gpu-bundle-lib2 (and -lib3, ...), each sent in a call of its own. See docs/benchmarks.md, "How to run on a GPU host".
#
#   scripts/gpu-bundle.sh          run from the project root
#
# Then, on the GPU host, from its copy of the project root (each folder carried by a call of its own):
#   bash .gpu-jre/install.sh
#   bash .gpu-bundle/run.sh main io.warpdb.tools.WarpCli tpch bench --sf 10 --in-memory --executor cpu,gpu
set -euo pipefail
root=$(pwd)
bundle_script="$root/../shared/gpu/bundle.sh"
[ -f "$root/pom.xml" ] && [ -d "$root/tools" ] || { echo "run from the project root" >&2; exit 2; }
[ -f "$bundle_script" ] || { echo "no $bundle_script" >&2; exit 2; }

# bundle.sh ends with a size listing that fails (pipefail) where no split folder exists; the bundle
# is written by then (run.sh last), which is what this checks instead.
bash "$bundle_script" tools || [ -f .gpu-bundle/run.sh ]
# bundle.sh installs WarpDB's modules into ~/.m2; stale snapshots there would shadow the
# reactor's own modules in later builds.
rm -rf "$HOME/.m2/repository/io/warpdb"

# Slimmed copies of the two jars that carry large natives, cached between calls.
cache=${XDG_CACHE_HOME:-$HOME/.cache}/warpdb
mkdir -p "$cache"

# DuckDB: only the linux-amd64 library, stripped of its debug symbols (JNI needs only the dynamic ones).
duckdb=$(ls .gpu-bundle/lib/duckdb_jdbc-*.jar)
slim="$cache/$(basename "$duckdb" .jar)-linux-amd64.jar"
if [ ! -f "$slim" ]; then
  work=$(mktemp -d)
  cp "$duckdb" "$work/duckdb.jar"
  zip -q -d "$work/duckdb.jar" 'libduckdb_java.so_macos_*' 'libduckdb_java.so_windows_*' 'libduckdb_java.so_linux_arm64'
  (cd "$work" && unzip -q duckdb.jar libduckdb_java.so_linux_amd64 && strip --strip-unneeded libduckdb_java.so_linux_amd64 \
    && zip -q -9 duckdb.jar libduckdb_java.so_linux_amd64)
  mv "$work/duckdb.jar" "$slim"; rm -rf "$work"
fi
cp "$slim" "$duckdb"

# JCuda: without the NVRTC and PTX-compiler bindings; WarpDB loads PTX through the driver API only (DESIGN.md).
jcuda=$(ls .gpu-bundle/lib/jcuda-natives-*.jar)
slim="$cache/$(basename "$jcuda" .jar)-driver.jar"
if [ ! -f "$slim" ]; then
  cp "$jcuda" "$slim.tmp"
  zip -q -d "$slim.tmp" 'lib/libJNvPTXCompiler-*' 'lib/libJNvrtc-*'
  mv "$slim.tmp" "$slim"
fi
cp "$slim" "$jcuda"

# The JUnit console launcher (3 MB) only serves `run.sh tests`; this bundle is for the CLI.
rm -rf .gpu-bundle/launcher .gpu-bundle/lib/junit-*.jar .gpu-bundle/lib/opentest4j-*.jar .gpu-bundle/lib/apiguardian-*.jar
# arrow-dataset (75 MB of natives) only reads Parquet for `warpdb load`/COPY; TPC-H runs do not load it.
rm -f .gpu-bundle/lib/arrow-dataset-*.jar
# JNA only serves sqlline's terminal; `warpdb sql` is not for a GPU host without a terminal.
rm -f .gpu-bundle/lib/jna-*.jar .gpu-bundle/lib/jline-terminal-jna-*.jar
# The Flight SQL JDBC driver (44 MB, shaded) only serves `warpdb flight` clients; netty-tcnative's natives of other platforms serve none.
rm -f .gpu-bundle/lib/flight-sql-jdbc-driver-*.jar
find .gpu-bundle/lib -name 'netty-tcnative-boringssl-static-*-*.jar' ! -name '*-linux-x86_64.jar' -delete
# What is still over one call's 64 MiB moves, largest jars first, to .gpu-bundle-lib2, -lib3, ...
# (each under 56 MiB; run.sh reads them too).
rm -rf .gpu-bundle-lib[0-9]
part=2
while [ "$(du -sb .gpu-bundle | cut -f1)" -ge $((56 * 1024 * 1024)) ]; do
  big=".gpu-bundle/lib/$(ls -S .gpu-bundle/lib | head -1)"
  if [ -d ".gpu-bundle-lib$part" ] && [ $(( $(du -sb ".gpu-bundle-lib$part" | cut -f1) + $(stat -c %s "$big") )) -ge $((56 * 1024 * 1024)) ]; then
    part=$((part + 1))
  fi
  mkdir -p ".gpu-bundle-lib$part"
  mv "$big" ".gpu-bundle-lib$part/"
done
limit=$((64 * 1024 * 1024))
bundle_bytes=$(du -sb .gpu-bundle | cut -f1)
jre_bytes=$(du -sb .gpu-jre | cut -f1)
total=$((bundle_bytes + jre_bytes))
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
echo ".gpu-bundle: $(mib "$bundle_bytes")"
echo ".gpu-jre:    $(mib "$jre_bytes")"
if [ -d .gpu-bundle-lib2 ]; then
  for d in .gpu-bundle-lib[0-9]; do echo "$d: $(mib "$(du -sb "$d" | cut -f1)")"; done
  echo "send .gpu-jre (bash .gpu-jre/install.sh there), then .gpu-bundle and each of $(ls -d .gpu-bundle-lib[0-9] | tr '\n' ' ')- one call each, one after another"
elif [ "$total" -lt "$limit" ]; then
  echo "together:    $(mib "$total"), under 64 MiB: both can travel in one call"
elif [ "$bundle_bytes" -lt "$limit" ]; then
  echo "together:    $(mib "$total"), NOT under 64 MiB: send .gpu-jre first (bash .gpu-jre/install.sh there), then .gpu-bundle"
else
  echo "together:    $(mib "$total"), and .gpu-bundle alone is NOT under 64 MiB: it cannot travel" >&2
  exit 1
fi
