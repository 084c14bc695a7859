package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Murmur3 against Guava's murmur3_32 (the reference x86 32-bit algorithm), on longs and on strings of every tail length. */
class Murmur3Test {
    @Test
    void equalsTheReferenceImplementation() {
        assertEquals(0x248bfa47, Murmur3.hashString("hello", 0));
        Random random = new Random(42);
        for (int i = 0; i < 1000; i++) {
            long v = i < 10 ? i - 5 : random.nextLong();
            assertEquals(Hashing.murmur3_32_fixed().hashLong(v).asInt(), Murmur3.hashLong(v, 0), "hash of " + v);
            StringBuilder s = new StringBuilder();
            for (int c = random.nextInt(12); c > 0; c--) {
                s.append((char) (random.nextBoolean() ? 'a' + random.nextInt(26) : 0xe9 + random.nextInt(300)));
            }
            assertEquals(Hashing.murmur3_32_fixed().hashString(s, StandardCharsets.UTF_8).asInt(), Murmur3.hashString(s.toString(), 0),
                    "hash of '" + s + "'");
        }
    }
}
