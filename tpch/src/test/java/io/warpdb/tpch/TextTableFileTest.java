package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextTableFileTest {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.BIGINT),
            new Field("name", DataType.varchar(20)), new Field("price", DataType.decimal(7, 2)), new Field("day", DataType.DATE),
            new Field("note", DataType.varchar(20).withNullable(false)));

    private static final String TEXT = """
            1|first|12.30|2001-01-02|a|
            2||0.05||b|
            3|a longer name|-1.50|1999-12-31||
            |x"y z |1|2000-02-29|quoted "text"|
            5|||||
            """;

    /** Every part size from one byte up puts part boundaries before, inside and after each line and value. */
    @Test
    void partsOfAnySizeReadEachLineOnceWithItsNulls(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("t.dat"), TEXT);
        List<String> expected = List.of("1,first,1230,11324,a", "2,NULL,5,NULL,b", "3,a longer name,-150,10956,",
                "NULL,x\"y z ,100,11016,quoted \"text\"", "5,NULL,NULL,NULL,");
        for (long partBytes = 1; partBytes <= TEXT.length() + 1; partBytes++) {
            TextTableFile table = new TextTableFile("t", file, SCHEMA, partBytes);
            List<String> rows = new ArrayList<>();
            for (int part = 0; part < table.parts(); part++) {
                try (RowCursor cursor = table.open(part)) {
                    while (cursor.next()) {
                        rows.add(row(cursor));
                    }
                }
            }
            assertEquals(expected, rows, "parts of " + partBytes + " bytes");
        }
    }

    private static String row(RowCursor cursor) {
        String[] values = new String[SCHEMA.size()];
        for (int c = 0; c < values.length; c++) {
            values[c] = cursor.isNull(c) ? "NULL" : switch (SCHEMA.type(c).kind()) {
                case DATE -> String.valueOf(cursor.getDate(c));
                case VARCHAR -> cursor.getString(c);
                default -> String.valueOf(cursor.getLong(c));
            };
        }
        return String.join(",", Arrays.asList(values));
    }

    @Test
    void aMissingFileIsNamed(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TextTableFile("t", dir.resolve("t.dat"), SCHEMA, 100));
        assertTrue(e.getMessage().equals("table t: no file " + dir.resolve("t.dat")), e.getMessage());
    }
}
