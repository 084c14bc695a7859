package io.warpdb.tpch;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws a benchmark report as a PNG bar chart: per query a WarpDB and a DuckDB bar of the
 * median time on a logarithmic axis (query times span several orders of magnitude), with the
 * ratio above each pair. Of a report on several executors it draws the first. Rendering is
 * off-screen, so no display is needed.
 */
public final class BenchChart {
    private static final Color WARPDB = new Color(0x1f77b4);
    private static final Color DUCKDB = new Color(0xff7f0e);
    private static final int LEFT = 80;
    private static final int RIGHT = 20;
    private static final int TOP = 70;
    private static final int BOTTOM = 50;
    private static final int GROUP_WIDTH = 48;
    private static final int BAR_WIDTH = 18;
    private static final int PLOT_HEIGHT = 420;

    private BenchChart() {
    }

    public static void write(SuiteBench.Report report, Path png) throws IOException {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        String executor = report.executors().get(0);
        List<SuiteBench.Timing> timings = report.timings(executor);
        int width = LEFT + RIGHT + Math.max(1, timings.size()) * GROUP_WIDTH;
        int height = TOP + PLOT_HEIGHT + BOTTOM;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            LogAxis axis = LogAxis.of(timings);
            drawTitle(g, report, executor);
            drawAxis(g, axis, width);
            for (int i = 0; i < timings.size(); i++) {
                drawGroup(g, axis, timings.get(i), LEFT + i * GROUP_WIDTH);
            }
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", png.toFile())) {
            throw new IOException("no PNG writer available");
        }
    }

    /** Maps milliseconds to pixels between whole powers of ten around the data. */
    private record LogAxis(int lowExponent, int highExponent) {
        static LogAxis of(List<SuiteBench.Timing> timings) {
            double min = Double.MAX_VALUE;
            double max = Double.MIN_VALUE;
            for (SuiteBench.Timing t : timings) {
                for (double ms : new double[] {t.warpdbMs(), t.duckdbMs()}) {
                    if (ms > 0 && !Double.isNaN(ms)) {
                        min = Math.min(min, ms);
                        max = Math.max(max, ms);
                    }
                }
            }
            if (min > max) {
                return new LogAxis(0, 1);
            }
            int low = (int) Math.floor(Math.log10(min));
            return new LogAxis(low, Math.max(low + 1, (int) Math.ceil(Math.log10(max))));
        }

        int y(double ms) {
            double fraction = (Math.log10(ms) - lowExponent) / (highExponent - lowExponent);
            return TOP + PLOT_HEIGHT - (int) Math.round(Math.max(0, Math.min(1, fraction)) * PLOT_HEIGHT);
        }
    }

    private static void drawTitle(Graphics2D g, SuiteBench.Report report, String executor) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(report.title(), LEFT, 24);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawString(String.format(Locale.ROOT, "median ms per query, log scale; ratio = WarpDB / DuckDB; geomean ratio %.3f",
                report.geomeanRatio(executor)), LEFT, 44);
        legend(g, WARPDB, "WarpDB (" + executor + ")", LEFT, 58);
        legend(g, DUCKDB, "DuckDB", LEFT + 130, 58);
    }

    private static void legend(Graphics2D g, Color color, String label, int x, int y) {
        g.setColor(color);
        g.fillRect(x, y - 10, 12, 12);
        g.setColor(Color.BLACK);
        g.drawString(label, x + 16, y);
    }

    private static void drawAxis(Graphics2D g, LogAxis axis, int width) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        FontMetrics metrics = g.getFontMetrics();
        for (int e = axis.lowExponent(); e <= axis.highExponent(); e++) {
            double ms = Math.pow(10, e);
            int y = axis.y(ms);
            g.setColor(new Color(0xdddddd));
            g.setStroke(new BasicStroke(1));
            g.drawLine(LEFT, y, width - RIGHT, y);
            String label = (e >= 0 ? String.format(Locale.ROOT, "%.0f", ms) : String.format(Locale.ROOT, "%." + -e + "f", ms)) + " ms";
            g.setColor(Color.DARK_GRAY);
            g.drawString(label, LEFT - 6 - metrics.stringWidth(label), y + metrics.getAscent() / 2 - 1);
        }
        g.setColor(Color.BLACK);
        g.drawLine(LEFT, TOP, LEFT, TOP + PLOT_HEIGHT);
        g.drawLine(LEFT, TOP + PLOT_HEIGHT, width - RIGHT, TOP + PLOT_HEIGHT);
    }

    private static void drawGroup(Graphics2D g, LogAxis axis, SuiteBench.Timing timing, int x) {
        int left = x + (GROUP_WIDTH - 2 * BAR_WIDTH) / 2;
        int base = TOP + PLOT_HEIGHT;
        FontMetrics metrics = g.getFontMetrics();
        int top = bar(g, axis, timing.warpdbMs(), WARPDB, left, base);
        top = Math.min(top, bar(g, axis, timing.duckdbMs(), DUCKDB, left + BAR_WIDTH, base));
        String above = timing.counts() ? String.format(Locale.ROOT, "%.2f", timing.ratio()) : "FAIL";
        g.setColor(timing.counts() ? Color.BLACK : Color.RED);
        g.drawString(above, x + (GROUP_WIDTH - metrics.stringWidth(above)) / 2, top - 4);
        g.setColor(Color.BLACK);
        String name = timing.query().name();
        g.drawString(name, x + (GROUP_WIDTH - metrics.stringWidth(name)) / 2, base + 16);
    }

    /** Draws one bar (none for a query that did not run) and returns the y of its top. */
    private static int bar(Graphics2D g, LogAxis axis, double ms, Color color, int x, int base) {
        if (Double.isNaN(ms) || ms <= 0) {
            return base;
        }
        int y = axis.y(ms);
        g.setColor(color);
        g.fillRect(x, y, BAR_WIDTH - 2, base - y);
        return y;
    }
}
