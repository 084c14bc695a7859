package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Rows for generated tables: empty and one-row tables, NULLs, duplicates, the types' extremes,
 * zero and negatives, skew (a column where one value dominates) and strings with shared
 * prefixes. Columns of one type draw from a value pool shared by all tables, so that joins and
 * IN lists find matches. No string ends in a space: WarpDB's CHAR compares padded (standard
 * SQL), DuckDB's does not (fuzz/README.md).
 */
public final class DataGenerator {
    private static final int POOL_SIZE = 6;
    private static final String[] PREFIXES = {"", "a", "ab", "abc", "b", "B", "Ab", "a b", "x_", "5%", "it's", "zz"};
    private static final String SUFFIX_CHARACTERS = "abcxyzAB 0_%'";
    private static final List<LocalDate> DATES = List.of(LocalDate.of(1970, 1, 1), LocalDate.of(2000, 2, 29),
            LocalDate.of(1999, 12, 31), LocalDate.of(2024, 2, 29), LocalDate.of(1992, 1, 1), LocalDate.of(1969, 7, 20));

    private final Random random;
    private final Map<SqlType, List<Object>> pools = new HashMap<>();

    public DataGenerator(Random random) {
        this.random = random;
    }

    /** The tables filled with rows. */
    public Dataset fill(List<Table> tables) {
        return new Dataset(tables.stream().map(t -> t.withRows(rows(t))).toList());
    }

    private List<List<Object>> rows(Table table) {
        int count = rowCount();
        int width = table.columns().size();
        double[] nullRate = new double[width];
        Object[] dominant = new Object[width];
        for (int c = 0; c < width; c++) {
            nullRate[c] = switch (random.nextInt(6)) {
                case 0, 1 -> 0;
                case 2 -> 0.5;
                case 3 -> 0.9;
                default -> 0.15;
            };
            dominant[c] = random.nextInt(5) == 0 ? value(table.columns().get(c).type()) : null;
        }
        List<List<Object>> rows = new ArrayList<>(count);
        for (int r = 0; r < count; r++) {
            List<Object> row = new ArrayList<>(width);
            for (int c = 0; c < width; c++) {
                SqlType type = table.columns().get(c).type();
                if (random.nextDouble() < nullRate[c]) {
                    row.add(null);
                } else if (dominant[c] != null && random.nextDouble() < 0.7) {
                    row.add(dominant[c]);
                } else {
                    row.add(value(type));
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private int rowCount() {
        return switch (random.nextInt(10)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2, 3, 4 -> 2 + random.nextInt(5);
            case 5, 6, 7, 8 -> 7 + random.nextInt(14);
            default -> 21 + random.nextInt(20);
        };
    }

    /** A value of {@code type}: mostly from the type's shared pool, else a fresh one. */
    Object value(SqlType type) {
        List<Object> pool = pools.computeIfAbsent(type, t -> {
            List<Object> p = new ArrayList<>();
            for (int i = 0; i < POOL_SIZE; i++) {
                p.add(fresh(t));
            }
            return p;
        });
        return random.nextInt(10) < 6 ? pool.get(random.nextInt(pool.size())) : fresh(type);
    }

    private Object fresh(SqlType type) {
        return switch (type.kind()) {
            case BOOLEAN -> random.nextBoolean();
            case INTEGER -> (int) integer(Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> integer(Long.MIN_VALUE, Long.MAX_VALUE);
            case DOUBLE -> doubleValue();
            case DECIMAL -> decimal(type);
            case DATE -> date();
            case CHAR, VARCHAR -> string(type.length());
        };
    }

    private long integer(long min, long max) {
        return switch (random.nextInt(20)) {
            case 0 -> random.nextBoolean() ? min : max;
            case 1 -> random.nextBoolean() ? min + 1 : max - 1;
            case 2, 3 -> 0;
            case 4 -> random.nextLong(Math.max(min, -1_000_000), Math.min(max, 1_000_000));
            case 5 -> random.nextLong(min, max);
            case 6 -> max > Integer.MAX_VALUE ? (random.nextBoolean() ? 3_000_000_000L : -3_000_000_000L) : 1000;
            default -> random.nextInt(-10, 11);
        };
    }

    /**
     * Multiples of 1/4096 below 2^24 in magnitude, so that sums of up to 2^17 of them are exact in
     * any order (the engines add in orders of their own; fuzz/README.md, dialect difference 14).
     * Extremes, tiny values (whose ROUND is -0.0) and every other double come from literals.
     */
    private double doubleValue() {
        return switch (random.nextInt(20)) {
            case 0 -> random.nextBoolean() ? 0x1p24 - 0x1p-12 : -0x1p24 + 0x1p-12;
            case 1 -> random.nextBoolean() ? 0x1p-12 : -0x1p-12;
            case 2, 3 -> 0.0;
            case 4, 5, 6 -> Math.round(random.nextDouble(-1000, 1000) * 4096) / 4096.0;
            case 7 -> Math.round(random.nextDouble(-0x1p24, 0x1p24) * 16) / 16.0;
            default -> random.nextInt(-40, 41) / 8.0;
        };
    }

    private BigDecimal decimal(SqlType type) {
        BigInteger largest = BigInteger.TEN.pow(type.precision()).subtract(BigInteger.ONE);
        long unscaled = switch (random.nextInt(12)) {
            case 0 -> largest.longValueExact();
            case 1 -> -largest.longValueExact();
            case 2, 3 -> 0;
            case 4, 5 -> random.nextLong(-largest.longValueExact(), largest.longValueExact() + 1);
            default -> random.nextLong(-Math.min(largest.longValueExact(), 2000), Math.min(largest.longValueExact(), 2000) + 1);
        };
        return BigDecimal.valueOf(unscaled, type.scale());
    }

    private LocalDate date() {
        return switch (random.nextInt(14)) {
            case 0 -> LocalDate.of(1, 1, 1);
            case 1 -> LocalDate.of(9999, 12, 31);
            case 2, 3, 4, 5 -> DATES.get(random.nextInt(DATES.size()));
            default -> LocalDate.of(1990, 1, 1).plusDays(random.nextInt(40 * 365));
        };
    }

    private String string(int maxLength) {
        StringBuilder sb = new StringBuilder(PREFIXES[random.nextInt(PREFIXES.length)]);
        int suffix = random.nextInt(4);
        for (int i = 0; i < suffix; i++) {
            sb.append(SUFFIX_CHARACTERS.charAt(random.nextInt(SUFFIX_CHARACTERS.length())));
        }
        String s = sb.length() > maxLength ? sb.substring(0, maxLength) : sb.toString();
        return s.stripTrailing();
    }
}
