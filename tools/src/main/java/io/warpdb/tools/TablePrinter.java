package io.warpdb.tools;

import java.io.PrintWriter;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Prints a result set as a text table, numbers aligned right. */
final class TablePrinter {
    private TablePrinter() {
    }

    /** Prints all rows of {@code rs} and returns how many there were. */
    static int print(ResultSet rs, PrintWriter out) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int columns = md.getColumnCount();
        String[] header = new String[columns];
        int[] widths = new int[columns];
        boolean[] rightAligned = new boolean[columns];
        for (int c = 0; c < columns; c++) {
            header[c] = md.getColumnLabel(c + 1);
            widths[c] = header[c].length();
            rightAligned[c] = md.isSigned(c + 1);
        }
        List<String[]> rows = new ArrayList<>();
        while (rs.next()) {
            String[] row = new String[columns];
            for (int c = 0; c < columns; c++) {
                Object value = rs.getObject(c + 1);
                row[c] = value == null ? "NULL" : value.toString();
                widths[c] = Math.max(widths[c], row[c].length());
            }
            rows.add(row);
        }
        String rule = rule(widths);
        out.println(rule);
        out.println(line(header, widths, new boolean[columns]));
        out.println(rule);
        for (String[] row : rows) {
            out.println(line(row, widths, rightAligned));
        }
        out.println(rule);
        return rows.size();
    }

    private static String rule(int[] widths) {
        StringBuilder b = new StringBuilder("+");
        for (int w : widths) {
            b.append("-".repeat(w + 2)).append('+');
        }
        return b.toString();
    }

    private static String line(String[] cells, int[] widths, boolean[] rightAligned) {
        StringBuilder b = new StringBuilder("|");
        for (int c = 0; c < cells.length; c++) {
            String pad = " ".repeat(widths[c] - cells[c].length());
            b.append(' ').append(rightAligned[c] ? pad + cells[c] : cells[c] + pad).append(" |");
        }
        return b.toString();
    }
}
