package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class TpchSchemaTest {
    @Test
    void columnsLineUpWithTheGenerator() {
        for (TpchSchema.Table table : TpchSchema.tables()) {
            List<? extends TpchColumn<?>> generated = table.generator().getColumns();
            assertEquals(generated.size(), table.schema().size(), table.name());
            for (int c = 0; c < generated.size(); c++) {
                TpchColumn<?> source = generated.get(c);
                DataType type = table.schema().type(c);
                String where = table.name() + "." + source.getColumnName();
                assertEquals(source.getColumnName(), table.schema().field(c).name(), where);
                assertFalse(type.nullable(), where);
                TpchColumnType.Base base = source.getType().getBase();
                switch (base) {
                    case IDENTIFIER -> assertEquals(source.getColumnName().endsWith("orderkey") ? TypeKind.BIGINT : TypeKind.INTEGER,
                            type.kind(), where);
                    case INTEGER -> assertEquals(TypeKind.INTEGER, type.kind(), where);
                    case DOUBLE -> assertEquals(DataType.decimal(15, 2).withNullable(false), type, where);
                    case DATE -> assertEquals(TypeKind.DATE, type.kind(), where);
                    case VARCHAR -> {
                        assertEquals(true, type.kind().isString(), where);
                        assertEquals(source.getType().getPrecision().orElseThrow().intValue(), type.precision(), where);
                    }
                }
            }
        }
    }

    @Test
    void ddlForDuckDbKeepsTypesButMakesCharVarchar() {
        assertEquals("CREATE TABLE region (r_regionkey INTEGER NOT NULL, r_name VARCHAR NOT NULL, r_comment VARCHAR NOT NULL)",
                DuckDbReference.createTable(TpchSchema.REGION.name(), TpchSchema.REGION.schema()));
        assertEquals(true, DuckDbReference.createTable(TpchSchema.LINEITEM.name(), TpchSchema.LINEITEM.schema()).contains("l_quantity DECIMAL(15,2) NOT NULL"));
    }
}
