package io.warpdb.ingest;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a load is told, as COPY's options and {@code warpdb load}'s flags both say it (one set
 * of names, so the CLI can hand its options to a server as a COPY statement). Options not given
 * take their default per file: {@code .tbl} files are pipe-delimited without a header and end
 * each record with a delimiter; other CSV files are comma-delimited with a header.
 *
 * @param format     null: by each file's name
 * @param maxErrors  rows that may be rejected (written to the reject file) before the load fails
 * @param rejectFile where rejected rows go; null: next to the first input, named {@code <input>.rejected}
 * @param create     create the table, with a schema inferred from the first file, when it does not exist
 */
public record LoadOptions(LoadFormat format, Boolean header, Character delimiter, Character quote, Character escape,
        String nullString, Boolean trailingDelimiter, long maxErrors, Path rejectFile, boolean create) {

    /** The option names, as COPY spells them. */
    public static final List<String> NAMES = List.of("FORMAT", "HEADER", "DELIMITER", "QUOTE", "ESCAPE", "NULL",
            "TRAILING_DELIMITER", "MAX_ERRORS", "REJECT_FILE", "CREATE");

    public static final LoadOptions DEFAULTS = of(Map.of());

    /** Options from name/value pairs (names as in {@link #NAMES}, any case); bad ones are SQLSTATE 22023. */
    public static LoadOptions of(Map<String, String> options) {
        Map<String, String> o = new LinkedHashMap<>();
        options.forEach((k, v) -> {
            String key = k.toUpperCase(Locale.ROOT);
            if (!NAMES.contains(key)) {
                throw invalid("unknown option " + k + "; options are " + String.join(", ", NAMES));
            }
            o.put(key, v);
        });
        String format = o.get("FORMAT");
        String maxErrors = o.get("MAX_ERRORS");
        String rejectFile = o.get("REJECT_FILE");
        return new LoadOptions(format == null ? null : LoadFormat.named(format), bool(o, "HEADER"), character(o, "DELIMITER"),
                character(o, "QUOTE"), character(o, "ESCAPE"), o.get("NULL"), bool(o, "TRAILING_DELIMITER"),
                maxErrors == null ? 0 : count(maxErrors), rejectFile == null ? null : Path.of(rejectFile),
                Boolean.TRUE.equals(bool(o, "CREATE")));
    }

    /** The format of {@code file}: the one given, else by its name. */
    public LoadFormat formatOf(Path file) {
        return format != null ? format : LoadFormat.of(file);
    }

    /** The CSV dialect of {@code file}: these options over the defaults its name implies. */
    public CsvDialect dialectOf(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean tbl = name.endsWith(".tbl") || name.endsWith(".tbl.gz");
        char q = quote != null ? quote : '"';
        return new CsvDialect(ascii(delimiter != null ? delimiter : tbl ? '|' : ',', "DELIMITER"), ascii(q, "QUOTE"),
                ascii(escape != null ? escape : q, "ESCAPE"), header != null ? header : !tbl, nullString != null ? nullString : "",
                trailingDelimiter != null ? trailingDelimiter : tbl);
    }

    /** Where rejected rows go when the first input is {@code firstInput}. */
    public Path rejectFileFor(Path firstInput) {
        return rejectFile != null ? rejectFile : firstInput.resolveSibling(firstInput.getFileName() + ".rejected");
    }

    /**
     * The COPY statement that loads {@code files} into {@code table} with these options, e.g. for
     * a server to run; file names are made absolute, since the server resolves them itself.
     */
    public static String copyStatement(String table, List<Path> files, Map<String, String> options) {
        String from = files.stream().map(f -> literal(f.toAbsolutePath().toString())).collect(Collectors.joining(", "));
        String with = options.isEmpty() ? "" : options.entrySet().stream()
                .map(e -> e.getKey().toUpperCase(Locale.ROOT) + " " + literal(e.getValue()))
                .collect(Collectors.joining(", ", " (", ")"));
        return "COPY \"" + table.replace("\"", "\"\"") + "\" FROM " + from + with;
    }

    private static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private static Boolean bool(Map<String, String> o, String key) {
        String v = o.get(key);
        if (v == null) {
            return null;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "on", "yes", "1" -> true;
            case "false", "off", "no", "0" -> false;
            default -> throw invalid(key + " must be true or false, not '" + v + "'");
        };
    }

    private static Character character(Map<String, String> o, String key) {
        String v = o.get(key);
        if (v == null) {
            return null;
        }
        String c = v.equals("\\t") ? "\t" : v;
        if (c.length() != 1) {
            throw invalid(key + " must be one character, not '" + v + "'");
        }
        return c.charAt(0);
    }

    private static byte ascii(char c, String key) {
        if (c == '\n' || c == '\r' || c > 127) {
            throw invalid(key + " must be an ASCII character other than a line end");
        }
        return (byte) c;
    }

    private static long count(String v) {
        try {
            long n = Long.parseLong(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid("MAX_ERRORS must be a count of rows, not '" + v + "'");
    }

    private static WarpException invalid(String message) {
        return new WarpException(SqlState.INVALID_PARAMETER_VALUE, message);
    }
}
