package io.warpdb.core.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;

/**
 * Murmur3 against commons-codec's MurmurHash3.hash32x86 (the reference x86 32-bit algorithm), on
 * longs (as their 8 little-endian bytes) and on strings of every tail length.
 */
class Murmur3Test {
    @Test
    void equalsTheReferenceImplementation() {
        assertEquals(0x248bfa47, Murmur3.hashString("hello", 0));
        Random random = new Random(42);
        for (int i = 0; i < 1000; i++) {
            long v = i < 10 ? i - 5 : random.nextLong();
            byte[] le = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
            assertEquals(MurmurHash3.hash32x86(le, 0, 8, 0), Murmur3.hashLong(v, 0), "hash of " + v);
            StringBuilder s = new StringBuilder();
            for (int c = random.nextInt(12); c > 0; c--) {
                s.append((char) (random.nextBoolean() ? 'a' + random.nextInt(26) : 0xe9 + random.nextInt(300)));
            }
            byte[] utf8 = s.toString().getBytes(StandardCharsets.UTF_8);
            assertEquals(MurmurHash3.hash32x86(utf8, 0, utf8.length, 0), Murmur3.hashString(s.toString(), 0), "hash of '" + s + "'");
        }
    }
}
