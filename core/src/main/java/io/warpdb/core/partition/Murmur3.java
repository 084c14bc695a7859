package io.warpdb.core.partition;

import java.nio.charset.StandardCharsets;

/**
 * MurmurHash3 (x86, 32-bit), the hash that places rows on shards (seed 000 section 3): the same
 * value gives the same shard on every node, whatever its integer type, so tables hashed on keys
 * of INTEGER and BIGINT columns are co-located. The GPU partitioner's kernel
 * (executor-gpu, cuda/partition/hash_partition.cu) computes the same function.
 */
public final class Murmur3 {
    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private Murmur3() {
    }

    /** The hash of a 64-bit value (integers, dates, unscaled decimals, a double's bits) as its two 32-bit halves. */
    public static int hashLong(long value, int seed) {
        int h = mix(seed, (int) value);
        h = mix(h, (int) (value >>> 32));
        return finish(h, 8);
    }

    /** The hash of a string's UTF-8 bytes. */
    public static int hashString(String value, int seed) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        int h = seed;
        int blocks = bytes.length / 4;
        for (int i = 0; i < blocks; i++) {
            int k = (bytes[4 * i] & 0xff) | (bytes[4 * i + 1] & 0xff) << 8 | (bytes[4 * i + 2] & 0xff) << 16 | (bytes[4 * i + 3] & 0xff) << 24;
            h = mix(h, k);
        }
        int k = 0;
        switch (bytes.length & 3) {
            case 3:
                k ^= (bytes[4 * blocks + 2] & 0xff) << 16;
                // fall through
            case 2:
                k ^= (bytes[4 * blocks + 1] & 0xff) << 8;
                // fall through
            case 1:
                k ^= bytes[4 * blocks] & 0xff;
                k *= C1;
                k = Integer.rotateLeft(k, 15);
                k *= C2;
                h ^= k;
                break;
            default:
                break;
        }
        return finish(h, bytes.length);
    }

    private static int mix(int h, int k) {
        k *= C1;
        k = Integer.rotateLeft(k, 15);
        k *= C2;
        h ^= k;
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }

    private static int finish(int h, int length) {
        h ^= length;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
