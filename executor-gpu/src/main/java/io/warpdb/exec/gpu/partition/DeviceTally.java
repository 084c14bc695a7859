package io.warpdb.exec.gpu.partition;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** How many tasks (partitions, chunks, blocks) each device ran, by device name in the order the devices were chosen. */
public record DeviceTally(Map<String, Integer> tasks) {
    public DeviceTally {
        tasks = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tasks));
    }

    /** The tasks run since {@code earlier}, a tally of the same dealer. */
    public DeviceTally since(DeviceTally earlier) {
        Map<String, Integer> diff = new LinkedHashMap<>();
        tasks.forEach((device, n) -> diff.put(device, n - earlier.tasks.getOrDefault(device, 0)));
        return new DeviceTally(diff);
    }

    public int total() {
        return tasks.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** "gpu0 12, gpu1 11". */
    public String describe() {
        return tasks.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }
}
