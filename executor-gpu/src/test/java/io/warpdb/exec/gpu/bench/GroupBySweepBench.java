package io.warpdb.exec.gpu.bench;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.aggregate.GpuAggregate;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.select.FilterProject;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;

/**
 * The group-by sweep of Karnagel et al. on the GPU: {@code SELECT MOD(col1, G), COUNT(*), SUM(col2)
 * FROM t GROUP BY MOD(col1, G)} over 2^N rows already in device memory (col1 BIGINT uniform in
 * [0, 10^9), col2 INTEGER), for G from 1 to 10^8 in steps of 1-2-5. Times the aggregation (best of
 * 3 after a warm-up; the MOD projection is computed before and not timed), prints one CSV line
 * per G and the largest ratio between neighbouring points:
 * {@code run.sh main io.warpdb.exec.gpu.bench.GroupBySweepBench [log2 rows [largest G]]}. The GPU host has no
 * fonts, so the chart is drawn elsewhere from that output:
 * {@code java ... GroupBySweepBench --chart sweep.log out.png}.
 */
public final class GroupBySweepBench {
    private static final int RUNS = 3;

    public static void main(String[] args) throws IOException {
        if (args.length == 3 && args[0].equals("--chart")) {
            chart(Path.of(args[1]), new File(args[2]));
            return;
        }
        int log2 = args.length > 0 ? Integer.parseInt(args[0]) : 28;
        long maxGroups = args.length > 1 ? Long.parseLong(args[1]) : 100_000_000L;
        int rows = 1 << log2;
        CudaDevice device = CudaDevice.get();
        System.out.println("device: " + device + ", rows: 2^" + log2);
        List<long[]> points = new ArrayList<>();
        try (DeviceWork work = new DeviceWork(device);
                DeviceColumn col1 = random(rows, DataType.BIGINT, 1_000_000_000L, 1, work);
                DeviceColumn col2 = random(rows, DataType.INTEGER, 1000, 2, work)) {
            Schema input = Schema.of(new Field("col1", DataType.BIGINT), new Field("col2", DataType.INTEGER));
            Schema keyed = Schema.of(new Field("g", DataType.BIGINT), new Field("col2", DataType.INTEGER));
            System.out.println("groups,groups_found,ms,rows_per_s");
            for (long groups = 1; groups <= maxGroups; groups = next(groups)) {
                try (DeviceTable base = new DeviceTable(input, rows, List.of(col1.share(), col2.share()));
                        DeviceTable table = FilterProject.run(base, null, List.of(
                                Call.of(Op.MOD, DataType.BIGINT, new ColumnRef(0, DataType.BIGINT), Literal.ofLong(groups, DataType.BIGINT)),
                                new ColumnRef(1, DataType.INTEGER)), keyed, null, work)) {
                    AggregateNode node = new AggregateNode(new ValuesNode(keyed, List.of()), List.of(0), List.of(
                            new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"),
                            new AggCall(AggFunction.SUM, List.of(1), false, DataType.BIGINT, "s")),
                            Schema.of(new Field("g", DataType.BIGINT), new Field("n", DataType.BIGINT), new Field("s", DataType.BIGINT)));
                    long best = Long.MAX_VALUE;
                    int found = 0;
                    for (int run = 0; run <= RUNS; run++) {
                        long start = System.nanoTime();
                        try (DeviceWork step = new DeviceWork(device); DeviceTable out = GpuAggregate.run(node, table, step)) {
                            step.synchronize();
                            found = out.rows();
                        }
                        if (run > 0) {
                            best = Math.min(best, System.nanoTime() - start);
                        }
                    }
                    points.add(new long[] {groups, best});
                    // Random keys leave a few residues unused when G nears the row count.
                    System.out.printf("%d,%d,%.2f,%.3g%n", groups, found, best / 1e6, rows / (best / 1e9));
                }
            }
        }
        double worst = 1;
        long at = 0;
        for (int i = 1; i < points.size(); i++) {
            double ratio = (double) points.get(i)[1] / points.get(i - 1)[1];
            if (ratio > worst) {
                worst = ratio;
                at = points.get(i)[0];
            }
        }
        System.out.printf("largest step between neighbouring points: %.2fx (to G = %d)%n", worst, at);
    }

    /** Draws the chart from a run's output (the "rows: 2^N" line and the CSV lines). */
    private static void chart(Path log, File png) throws IOException {
        List<long[]> points = new ArrayList<>();
        int rows = 0;
        for (String line : Files.readAllLines(log)) {
            if (line.contains("rows: 2^")) {
                rows = 1 << Integer.parseInt(line.substring(line.indexOf("rows: 2^") + 8).trim());
            } else if (line.matches("\\d+,\\d+,[0-9.]+,.*")) {
                String[] f = line.split(",");
                points.add(new long[] {Long.parseLong(f[0]), (long) (Double.parseDouble(f[2]) * 1e6)});
            }
        }
        draw(points, rows, png);
    }

    /** 1, 2, 5, 10, 20, 50, ... */
    private static long next(long g) {
        long decade = 1;
        while (decade * 10 <= g) {
            decade *= 10;
        }
        long digit = g / decade;
        return digit == 1 ? 2 * decade : digit == 2 ? 5 * decade : 10 * decade;
    }

    private static DeviceColumn random(int rows, DataType type, long bound, long seed, DeviceWork work) {
        SplittableRandom random = new SplittableRandom(seed);
        return BenchColumns.generate(type, rows, row -> random.nextLong(bound), work);
    }

    /** Time per G on log-log axes. */
    private static void draw(List<long[]> points, int rows, File file) throws IOException {
        int w = 900;
        int h = 520;
        int left = 80;
        int right = 30;
        int top = 40;
        int bottom = 60;
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        double minMs = points.stream().mapToDouble(p -> p[1] / 1e6).min().orElse(1);
        double maxMs = points.stream().mapToDouble(p -> p[1] / 1e6).max().orElse(10);
        double lo = Math.floor(Math.log10(minMs));
        double hi = Math.ceil(Math.log10(maxMs));
        if (hi == lo) {
            hi = lo + 1;
        }
        double xMax = Math.log10(points.get(points.size() - 1)[0]);
        g.setColor(Color.LIGHT_GRAY);
        for (double d = lo; d <= hi; d++) {
            int y = top + (int) ((hi - d) / (hi - lo) * (h - top - bottom));
            g.drawLine(left, y, w - right, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format("%s ms", fmt(Math.pow(10, d))), 10, y + 4);
            g.setColor(Color.LIGHT_GRAY);
        }
        for (int d = 0; d <= (int) xMax; d++) {
            int x = left + (int) (d / xMax * (w - left - right));
            g.drawLine(x, top, x, h - bottom);
            g.setColor(Color.DARK_GRAY);
            g.drawString("1e" + d, x - 10, h - bottom + 18);
            g.setColor(Color.LIGHT_GRAY);
        }
        g.setColor(new Color(0x1f77b4));
        g.setStroke(new BasicStroke(2.5f));
        int px = -1;
        int py = -1;
        for (long[] p : points) {
            int x = left + (int) (Math.log10(p[0]) / xMax * (w - left - right));
            int y = top + (int) ((hi - Math.log10(p[1] / 1e6)) / (hi - lo) * (h - top - bottom));
            g.fillOval(x - 4, y - 4, 8, 8);
            if (px >= 0) {
                g.drawLine(px, py, x, y);
            }
            px = x;
            py = y;
        }
        g.setColor(Color.BLACK);
        g.drawString("GPU group-by: SELECT MOD(col1, G), COUNT(*), SUM(col2) GROUP BY 1 over " + rows
                + " rows (H100, data resident)", left, 24);
        g.drawString("number of groups G (log scale)", w / 2 - 90, h - 15);
        g.dispose();
        ImageIO.write(image, "png", file);
    }

    private static String fmt(double v) {
        return v >= 1 ? String.format("%.0f", v) : String.format("%.2g", v);
    }
}
