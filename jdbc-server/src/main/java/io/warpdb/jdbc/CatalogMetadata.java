package io.warpdb.jdbc;

import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.sql.Database;
import io.warpdb.sql.PrimaryKeys;
import io.warpdb.sql.Session;
import io.warpdb.sql.SqlFunctions;
import io.warpdb.sql.ViewCatalog;
import io.warpdb.sql.calcite.CalcitePlanner;
import io.warpdb.storage.CatalogSnapshot;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.apache.calcite.avatica.Meta.Pat;
import org.apache.calcite.avatica.MetaImpl.MetaCatalog;
import org.apache.calcite.avatica.MetaImpl.MetaColumn;
import org.apache.calcite.avatica.MetaImpl.MetaFunction;
import org.apache.calcite.avatica.MetaImpl.MetaSchema;
import org.apache.calcite.avatica.MetaImpl.MetaTable;
import org.apache.calcite.avatica.MetaImpl.MetaTableType;
import org.apache.calcite.avatica.MetaImpl.MetaTypeInfo;

/**
 * The rows of the {@link DatabaseMetaData} result sets for one connection's database. A
 * database is one catalog, named like the database, holding one schema, {@code PUBLIC}, the
 * schema the planner resolves names in; it contains tables (type {@code TABLE}) and views
 * (type {@code VIEW}).
 */
final class CatalogMetadata {
    static final String SCHEMA = CalcitePlanner.SCHEMA;
    private static final String TABLE = "TABLE";
    private static final String VIEW = "VIEW";

    private final Database database;
    private final Session session;

    CatalogMetadata(Database database, Session session) {
        this.database = database;
        this.session = session;
    }

    List<MetaCatalog> catalogs() {
        return List.of(new MetaCatalog(database.name()));
    }

    List<MetaSchema> schemas(String catalog, Pat schemaPattern) {
        boolean matches = SearchPattern.catalogMatches(catalog, database.name()) && SearchPattern.of(schemaPattern.s).test(SCHEMA);
        return matches ? List.of(new MetaSchema(database.name(), SCHEMA)) : List.of();
    }

    List<MetaTableType> tableTypes() {
        return List.of(new MetaTableType(TABLE), new MetaTableType(VIEW));
    }

    /** Ordered by type and name, as JDBC asks; {@code types} null means all. */
    List<MetaTable> tables(String catalog, Pat schemaPattern, Pat namePattern, List<String> types) {
        List<MetaTable> rows = new ArrayList<>();
        for (Relation r : relations(catalog, schemaPattern, namePattern)) {
            if (types == null || types.stream().anyMatch(r.type::equalsIgnoreCase)) {
                rows.add(new MetaTable(database.name(), SCHEMA, r.name, r.type));
            }
        }
        rows.sort(Comparator.comparing((MetaTable t) -> t.tableType).thenComparing(t -> t.tableName, String.CASE_INSENSITIVE_ORDER));
        return rows;
    }

    /** Ordered by table name and column position, as JDBC asks. */
    List<MetaColumn> columns(String catalog, Pat schemaPattern, Pat tablePattern, Pat columnPattern) {
        Predicate<String> columnMatches = SearchPattern.of(columnPattern.s);
        List<MetaColumn> rows = new ArrayList<>();
        for (Relation r : relations(catalog, schemaPattern, tablePattern)) {
            Schema schema = columnsOf(r);
            for (int i = 0; schema != null && i < schema.size(); i++) {
                Field f = schema.field(i);
                if (columnMatches.test(f.name())) {
                    rows.add(column(r.name, f, i + 1));
                }
            }
        }
        return rows;
    }

    private MetaColumn column(String table, Field field, int position) {
        DataType t = field.type();
        Integer octets = t.kind().isString() ? JdbcTypes.precision(t) : null;
        return new MetaColumn(database.name(), SCHEMA, table, field.name(), t.jdbcType(), JdbcTypes.typeName(t),
                JdbcTypes.precision(t), t.scale(), JdbcTypes.radix(t), JdbcTypes.nullability(t), octets, position,
                t.nullable() ? "YES" : "NO", "NO", "NO");
    }

    /**
     * A row of {@link DatabaseMetaData#getPrimaryKeys}: public fields in the standard's column order, named as Avatica
     * names columns after fields ({@code tableCat} is {@code TABLE_CAT}), as its own {@code MetaPrimaryKey}, which
     * code outside Avatica cannot construct.
     */
    static final class PrimaryKeyColumn {
        public final String tableCat;
        public final String tableSchem;
        public final String tableName;
        public final String columnName;
        public final short keySeq;
        public final String pkName;

        PrimaryKeyColumn(String tableCat, String tableSchem, String tableName, String columnName, short keySeq) {
            this.tableCat = tableCat;
            this.tableSchem = tableSchem;
            this.tableName = tableName;
            this.columnName = columnName;
            this.keySeq = keySeq;
            this.pkName = null;
        }
    }

    /**
     * The PRIMARY KEY columns of the table named {@code table} (an exact name, matched ignoring case, as names resolve
     * in SQL), ordered by column name as JDBC asks; none for a view, a table without a key or a null name.
     */
    List<PrimaryKeyColumn> primaryKeys(String catalog, String schema, String table) {
        List<PrimaryKeyColumn> rows = new ArrayList<>();
        if (table == null || !SearchPattern.catalogMatches(catalog, database.name()) || schema != null && !schema.equalsIgnoreCase(SCHEMA)) {
            return rows;
        }
        try (CatalogSnapshot snapshot = database.catalog().snapshot()) {
            for (TableSource t : snapshot.tables()) {
                if (t.name().equalsIgnoreCase(table)) {
                    List<String> key = PrimaryKeys.of(snapshot.properties(), t.name());
                    for (int i = 0; i < key.size(); i++) {
                        rows.add(new PrimaryKeyColumn(database.name(), SCHEMA, t.name(), key.get(i), (short) (i + 1)));
                    }
                }
            }
        }
        rows.sort(Comparator.comparing((PrimaryKeyColumn k) -> k.columnName));
        return rows;
    }

    /** One row per type WarpDB stores (DECIMAL and strings at their widest), ordered by JDBC type code as JDBC asks. */
    List<MetaTypeInfo> typeInfo() {
        List<MetaTypeInfo> rows = new ArrayList<>();
        List<DataType> types = new ArrayList<>(List.of(DataType.TINYINT, DataType.SMALLINT, DataType.REAL));
        for (TypeKind kind : TypeKind.values()) {
            types.add(widest(kind));
        }
        for (DataType t : types) {
            TypeKind kind = t.kind();
            String quote = kind.isString() ? "'" : kind.isDatetime() ? kind.name() + " '" : null;
            short maxScale = (short) (kind == TypeKind.DECIMAL ? DataType.MAX_WIDE_DECIMAL_PRECISION : 0);
            rows.add(new MetaTypeInfo(JdbcTypes.typeName(t), t.jdbcType(), JdbcTypes.precision(t), quote,
                    quote == null ? null : "'", (short) DatabaseMetaData.typeNullable, kind.isString(),
                    (short) DatabaseMetaData.typeSearchable, false, false, false, (short) 0, maxScale,
                    kind.isNumeric() ? 10 : 0));
        }
        rows.sort(Comparator.comparingInt(r -> r.dataType));
        return rows;
    }

    private static DataType widest(TypeKind kind) {
        return switch (kind) {
            case DECIMAL -> DataType.decimal(DataType.MAX_WIDE_DECIMAL_PRECISION, 0);
            case CHAR -> DataType.chars(DataType.VARCHAR.displaySize());
            default -> new DataType(kind, 0, 0, true);
        };
    }

    /**
     * The built-in functions whose names match (they belong to no catalog or schema, so only the
     * name pattern selects), ordered by name as JDBC asks.
     */
    List<MetaFunction> functions(Pat functionNamePattern) {
        Predicate<String> nameMatches = SearchPattern.of(functionNamePattern.s);
        return SqlFunctions.ALL.stream().filter(f -> nameMatches.test(f.name()))
                .map(f -> new MetaFunction(null, null, f.name(), (short) DatabaseMetaData.functionNoTable, f.name()))
                .toList();
    }

    /** A table or view; {@code schema} is null for views, whose columns come from planning them. */
    private record Relation(String name, String type, Schema schema) {
    }

    /** The tables and views the patterns select, ordered by name, from one catalog version. */
    private List<Relation> relations(String catalog, Pat schemaPattern, Pat namePattern) {
        List<Relation> out = new ArrayList<>();
        if (!SearchPattern.catalogMatches(catalog, database.name()) || !SearchPattern.of(schemaPattern.s).test(SCHEMA)) {
            return out;
        }
        Predicate<String> nameMatches = SearchPattern.of(namePattern.s);
        try (CatalogSnapshot snapshot = database.catalog().snapshot()) {
            for (TableSource t : snapshot.tables()) {
                if (nameMatches.test(t.name())) {
                    out.add(new Relation(t.name(), TABLE, t.schema()));
                }
            }
            for (ViewCatalog.View v : ViewCatalog.views(snapshot.properties())) {
                if (nameMatches.test(v.name())) {
                    out.add(new Relation(v.name(), VIEW, null));
                }
            }
        }
        out.sort(Comparator.comparing(Relation::name, String.CASE_INSENSITIVE_ORDER));
        return out;
    }

    /** The columns of the table or view with this name (in any case); null when there is none or the view no longer plans. */
    Schema columnsOf(String name) {
        for (Relation r : relations(null, Pat.of(null), Pat.of(null))) {
            if (r.name.equalsIgnoreCase(name)) {
                return columnsOf(r);
            }
        }
        return null;
    }

    /** A relation's columns; null for a view that no longer plans because a table it reads was dropped. */
    private Schema columnsOf(Relation r) {
        if (r.schema != null) {
            return r.schema;
        }
        try {
            return session.prepare("SELECT * FROM \"" + r.name.replace("\"", "\"\"") + "\"").resultSchema();
        } catch (WarpException e) {
            return null;
        }
    }
}
