package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.value.Int128;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cuda/common/wide.cuh, the interpreter's 128-bit arithmetic, computes as core's {@link Int128}:
 * the header compiled for the host (its device qualifiers and double intrinsics replaced by their
 * host meaning: the same IEEE round-to-nearest operations) runs on random operands of 1 to 38
 * digits and the limits (±(10^38 - 1), ±2^127, ±2^64), and every result (sum, difference,
 * product, 22003 past 128 bits, scaling up and down HALF_UP, precision, comparison across scales,
 * conversion to double) equals Int128's. Needs a C++ compiler (g++), not a GPU; skipped without one.
 */
class WideHelpersHostTest {
    private static final int CASES = 10_000;
    private static final String HOST_INTRINSICS = """
            #include <cstdio>
            inline double __ull2double_rn(unsigned long long v) { return (double)v; }
            inline double __ll2double_rn(long long v) { return (double)v; }
            inline double __dadd_rn(double a, double b) { return a + b; }
            inline double __dmul_rn(double a, double b) { return a * b; }
            inline double __ddiv_rn(double a, double b) { return a / b; }
            """;
    private static final String MAIN = """
            using namespace warp;
            static __int128 parse(const char* s) {
                bool neg = *s == '-'; if (neg) s++;
                u128 v = 0; while (*s) v = v * 10 + (u128)(*s++ - '0');
                return neg ? (__int128)((u128)0 - v) : (__int128)v;
            }
            static void print(bool ok, __int128 x) {
                if (!ok) { printf("x "); return; }
                char buf[64]; int i = 63; buf[i] = 0; u128 m = magnitude(x);
                if (m == 0) buf[--i] = '0';
                while (m) { buf[--i] = (char)('0' + (int)(m % 10)); m /= 10; }
                if (x < 0) buf[--i] = '-';
                printf("%s ", buf + i);
            }
            int main() {
                char a[64], b[64]; int k;
                while (scanf("%63s %63s %d", a, b, &k) == 3) {
                    __int128 x = parse(a), y = parse(b), r;
                    bool ok = addWide(x, y, r); print(ok, r);
                    ok = subtractWide(x, y, r); print(ok, r);
                    ok = multiplyWide(x, y, r); print(ok, r);
                    ok = scaleUpWide(x, k, r); print(ok, r);
                    print(true, scaleDownWide(x, k));
                    printf("%d %d %d %a\\n", fitsDigits(x, k), compareWide(x, y, k - 19), compareWide(x, y, 0), wideToDouble(x, k));
                }
            }
            """;

    @Test
    void wideHelpersComputeAsInt128(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("wide_host.cpp");
        String header = VmSource.read("wide.cuh").replace("#pragma once", "").replace("__device__ __forceinline__", "inline")
                .replace("__device__ __constant__", "const");
        Files.writeString(source, HOST_INTRINSICS + header + MAIN);
        Path binary = dir.resolve("wide_host");
        Process compile;
        try {
            compile = new ProcessBuilder("g++", "-O0", "-std=c++17", "-ffp-contract=off", "-o", binary.toString(), source.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException noCompiler) {
            Assumptions.abort("no g++ to compile wide.cuh for the host: " + noCompiler.getMessage());
            return;
        }
        String compileOutput = new String(compile.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, compile.waitFor(), compileOutput);

        Random random = new Random(38);
        List<BigInteger[]> cases = new ArrayList<>();
        StringBuilder input = new StringBuilder();
        for (int i = 0; i < CASES; i++) {
            BigInteger x = operand(random);
            BigInteger y = operand(random);
            int k = random.nextInt(Int128.MAX_DIGITS + 1);
            cases.add(new BigInteger[] {x, y, BigInteger.valueOf(k)});
            input.append(x).append(' ').append(y).append(' ').append(k).append('\n');
        }
        // Through files: a pipe in each direction would block once the output fills before the input is written.
        Path in = Files.writeString(dir.resolve("cases.txt"), input);
        Path out = dir.resolve("results.txt");
        Process run = new ProcessBuilder(binary.toString()).redirectInput(in.toFile()).redirectOutput(out.toFile()).start();
        assertEquals(true, run.waitFor(60, TimeUnit.SECONDS), "the harness did not finish");
        List<String> lines = Files.readAllLines(out, StandardCharsets.US_ASCII);
        assertEquals(CASES, lines.size());
        for (int i = 0; i < CASES; i++) {
            BigInteger x = cases.get(i)[0];
            BigInteger y = cases.get(i)[1];
            int k = cases.get(i)[2].intValue();
            assertEquals(expected(x, y, k), lines.get(i), "x = " + x + ", y = " + y + ", k = " + k);
        }
    }

    /** 1 to 38 digits of either sign, or one of the limits. */
    private static BigInteger operand(Random random) {
        if (random.nextInt(8) == 0) {
            BigInteger[] limits = {BigInteger.TEN.pow(38).subtract(BigInteger.ONE), BigInteger.TEN.pow(38).subtract(BigInteger.ONE).negate(),
                    BigInteger.TWO.pow(127).subtract(BigInteger.ONE), BigInteger.TWO.pow(127).negate(), BigInteger.TWO.pow(64),
                    BigInteger.TWO.pow(64).negate(), BigInteger.ZERO, BigInteger.ONE.negate()};
            return limits[random.nextInt(limits.length)];
        }
        BigInteger magnitude = new BigInteger(130, random).mod(BigInteger.TEN.pow(1 + random.nextInt(38)));
        return random.nextBoolean() ? magnitude.negate() : magnitude;
    }

    /** The harness's line as Int128 computes it. */
    private static String expected(BigInteger x, BigInteger y, int k) {
        Int128 b = new Int128().set(y);
        StringBuilder line = new StringBuilder();
        line.append(result(x, v -> v.add(b.high, b.low)));
        line.append(result(x, v -> v.subtract(b.high, b.low)));
        line.append(result(x, v -> v.multiply(b.high, b.low)));
        line.append(result(x, v -> v.scaleUp(k)));
        line.append(result(x, v -> v.scaleDownHalfUp(k)));
        Int128 a = new Int128().set(x);
        int shift = k - 19;
        int scaled = shift >= 0 ? x.multiply(BigInteger.TEN.pow(shift)).compareTo(y) : x.compareTo(y.multiply(BigInteger.TEN.pow(-shift)));
        line.append(a.fitsPrecision(k) ? 1 : 0).append(' ').append(scaled).append(' ').append(x.compareTo(y)).append(' ')
                .append(hex(Int128.toDouble(a.high, a.low, k)));
        return line.toString();
    }

    private static String result(BigInteger x, java.util.function.Consumer<Int128> op) {
        Int128 v = new Int128().set(x);
        try {
            op.accept(v);
            return v + " ";
        } catch (io.warpdb.core.error.WarpException beyond128Bits) {
            return "x ";
        }
    }

    /** A double as C's printf("%a") writes it (normalized hexadecimal, as glibc does). */
    private static String hex(double d) {
        if (d == 0) {
            return (1 / d < 0 ? "-" : "") + "0x0p+0";
        }
        String s = Double.toHexString(d).replace("0x1.0p", "0x1p");
        int p = s.indexOf('p');
        return s.substring(0, p + 1) + (s.charAt(p + 1) == '-' ? "" : "+") + s.substring(p + 1);
    }
}
