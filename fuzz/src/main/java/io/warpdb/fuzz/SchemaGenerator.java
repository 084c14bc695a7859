package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random table definitions: 1-4 tables {@code t0..t3} of 1-6 columns {@code c0..c5} over every
 * supported type. Every table gets at least one INTEGER or BIGINT column, and types repeat
 * across tables, so that joins find keys of the same type.
 */
public final class SchemaGenerator {
    private final Random random;

    public SchemaGenerator(Random random) {
        this.random = random;
    }

    /** Tables without rows. */
    public List<Table> tables() {
        int count = 1 + random.nextInt(4);
        List<SqlType> shared = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            shared.add(type());
        }
        List<Table> out = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            int columns = 1 + random.nextInt(6);
            List<Column> cols = new ArrayList<>();
            cols.add(new Column("c0", random.nextInt(3) == 0 ? SqlType.BIGINT : SqlType.INTEGER));
            for (int c = 1; c < columns; c++) {
                SqlType type = random.nextInt(2) == 0 ? shared.get(random.nextInt(shared.size())) : type();
                cols.add(new Column("c" + c, type));
            }
            out.add(new Table("t" + t, cols, List.of()));
        }
        return out;
    }

    /** A random column type. */
    SqlType type() {
        return switch (random.nextInt(9)) {
            case 0 -> SqlType.BOOLEAN;
            case 1 -> SqlType.INTEGER;
            case 2 -> SqlType.BIGINT;
            case 3 -> SqlType.DOUBLE;
            case 4 -> {
                int precision = 1 + random.nextInt(SqlType.MAX_DECIMAL_PRECISION);
                yield SqlType.decimal(precision, random.nextInt(Math.min(precision, 6) + 1));
            }
            case 5 -> SqlType.DATE;
            case 6 -> SqlType.charOf(1 + random.nextInt(6));
            default -> SqlType.varchar(1 + random.nextInt(12));
        };
    }
}
