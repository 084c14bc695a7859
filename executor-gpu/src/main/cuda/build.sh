#!/usr/bin/env bash
# Compiles every kernel file src/main/cuda/<area>/<name>.cu into OUT/<area>/<name>.fatbin holding
# sm_90 machine code (H100/H200) and compute_90 PTX that the driver JITs for newer GPUs.
# Without nvcc it writes OUT/UNAVAILABLE with the reason, which the provider reports.
# Rebuilds only files older than their source or any header. NVCC_ARCHS overrides the targets.
set -euo pipefail
out=${1:?usage: build.sh OUTPUT_DIR}
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if ! command -v nvcc >/dev/null 2>&1; then
  echo "nvcc was not on the PATH when this jar was built, so it holds no GPU kernels" > "$out/UNAVAILABLE"
  echo "[cuda] nvcc not found: building without GPU kernels"
  exit 0
fi
rm -f "$out/UNAVAILABLE"
archs=${NVCC_ARCHS:--gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90}
newest_header=$(find "$src" -name '*.cuh' -printf '%T@\n' | sort -n | tail -1)
count=0
pids=()
while IFS= read -r cu; do
  rel=${cu#"$src"/}
  bin="$out/${rel%.cu}.fatbin"
  mkdir -p "$(dirname "$bin")"
  if [ -f "$bin" ] && [ "$bin" -nt "$cu" ] && awk -v a="$(stat -c %Y "$bin")" -v b="${newest_header:-0}" 'BEGIN{exit !(a>=b)}'; then
    continue
  fi
  # shellcheck disable=SC2086
  nvcc -fatbin -O3 -std=c++17 -I "$src/common" $archs -o "$bin" "$cu" &
  pids+=($!)
  count=$((count + 1))
done < <(find "$src" -name '*.cu' | sort)
for p in "${pids[@]}"; do wait "$p"; done
echo "[cuda] compiled $count kernel file(s) with $(nvcc --version | tail -1)"
