package io.warpdb.exec.gpu.runtime;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which CUDA devices the executor uses, in order: {@code -Dwarpdb.gpu.devices=0,1} (ordinals as
 * the driver numbers them, honouring {@code CUDA_VISIBLE_DEVICES}), or every visible device when
 * unset or blank. The first is the device in-core work runs on; out-of-core work is dealt over all.
 * Each device gets its own context, pool, staging and kernels, so an ordinal may appear once.
 */
public final class DeviceSelection {
    /** The property naming the devices, e.g. {@code 0,1}. */
    public static final String DEVICES_PROPERTY = "warpdb.gpu.devices";

    private DeviceSelection() {
    }

    /**
     * The ordinals {@code text} names among {@code visible} devices (null or blank: all of them).
     *
     * @throws IllegalArgumentException naming what is wrong: not a number, negative, beyond the
     *     visible devices, or repeated
     */
    public static List<Integer> parse(String text, int visible) {
        if (visible < 1) {
            throw new IllegalArgumentException("no CUDA device found");
        }
        List<Integer> all = new ArrayList<>();
        if (text == null || text.isBlank()) {
            for (int d = 0; d < visible; d++) {
                all.add(d);
            }
            return List.copyOf(all);
        }
        Set<Integer> chosen = new LinkedHashSet<>();
        for (String part : text.split(",", -1)) {
            String t = part.trim();
            int ordinal;
            try {
                ordinal = Integer.parseInt(t);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(DEVICES_PROPERTY + "=" + text + ": '" + t + "' is not a device number");
            }
            if (ordinal < 0 || ordinal >= visible) {
                throw new IllegalArgumentException(DEVICES_PROPERTY + "=" + text + ": device " + ordinal + " does not exist ("
                        + visible + " visible: 0.." + (visible - 1) + ")");
            }
            if (!chosen.add(ordinal)) {
                throw new IllegalArgumentException(DEVICES_PROPERTY + "=" + text + ": device " + ordinal + " is named twice");
            }
        }
        return List.copyOf(chosen);
    }

    /** The ordinals the system property names among {@code visible} devices. */
    static List<Integer> configured(int visible) {
        return parse(System.getProperty(DEVICES_PROPERTY), visible);
    }
}
