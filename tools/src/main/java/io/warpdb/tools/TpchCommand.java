package io.warpdb.tools;

import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import io.warpdb.tpch.BenchChart;
import io.warpdb.tpch.LoadReport;
import io.warpdb.tpch.TblFiles;
import io.warpdb.tpch.TpchBench;
import io.warpdb.tpch.TpchData;
import io.warpdb.tpch.TpchGenerator;
import io.warpdb.tpch.TpchLoader;
import io.warpdb.tpch.TpchQueries;
import io.warpdb.tpch.TpchRunner;
import io.warpdb.tpch.TpchSetup;
import io.warpdb.tpch.WarpDbTarget;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code warpdb tpch gen|load|run|bench}: the bundled TPC-H suite. Data is generated with the
 * TPC-H generator (or read from {@code .tbl} files) and kept in a durable WarpDB database
 * directory, loaded on first use; DuckDB, loaded in-process from the same data, is the
 * reference answer and the benchmark peer.
 */
@Command(name = "tpch", mixinStandardHelpOptions = true, description = "Generate, load, run and benchmark TPC-H.",
        subcommands = {TpchCommand.Gen.class, TpchCommand.Load.class, TpchCommand.Run.class, TpchCommand.Bench.class})
public final class TpchCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** Options every subcommand shares. */
    static final class Common {
        @Option(names = "--sf", required = true, description = "Scale factor, e.g. 0.01, 1, 10.")
        double scaleFactor;

        @Option(names = "--data", description = "WarpDB database directory (default: data/tpch-sf<SF>).")
        Path data;

        @Option(names = "--tbl", description = "Read dbgen .tbl files from this directory instead of generating.")
        Path tbl;

        @Option(names = "--threads", description = "Loader threads (default: number of cores).")
        int threads = Runtime.getRuntime().availableProcessors();

        Path dataDirectory() {
            return data != null ? data : Path.of("data", "tpch-sf" + format(scaleFactor));
        }

        TpchData source() {
            return tbl != null ? new TblFiles(tbl) : new TpchGenerator(scaleFactor);
        }

        Database open() {
            return Database.open(dataDirectory(), StorageOptions.defaults());
        }
    }

    static String format(double sf) {
        return String.format(Locale.ROOT, "%s", sf).replaceAll("\\.0$", "");
    }

    @Command(name = "gen", mixinStandardHelpOptions = true, description = "Write the data as dbgen .tbl files.")
    static final class Gen implements Callable<Integer> {
        @Mixin
        Common common;

        @Option(names = "--out", description = "Directory for the .tbl files (default: data/tpch-sf<SF>-tbl).")
        Path out;

        @Override
        public Integer call() {
            Path dir = out != null ? out : Path.of("data", "tpch-sf" + format(common.scaleFactor) + "-tbl");
            System.out.print(TblFiles.write(new TpchGenerator(common.scaleFactor), dir, common.threads).format());
            System.out.println("wrote " + dir);
            return 0;
        }
    }

    @Command(name = "load", mixinStandardHelpOptions = true, description = "Load the data into the database directory.")
    static final class Load implements Callable<Integer> {
        @Mixin
        Common common;

        @Override
        public Integer call() {
            try (Database db = common.open()) {
                TpchLoader.drop(db);
                LoadReport report = TpchLoader.load(db, common.source(), common.threads);
                System.out.print(report.format());
                System.out.println("loaded " + common.dataDirectory());
            }
            return 0;
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run the 22 queries once and check every answer against DuckDB; exit 1 on any FAIL.")
    static final class Run implements Callable<Integer> {
        @Mixin
        Common common;

        @Option(names = "--executor", description = "auto, cpu or gpu (default: auto).")
        String executor = "auto";

        @Override
        public Integer call() {
            try (TpchSetup setup = setup(common); WarpDbTarget warpdb = setup.warpdb(executor)) {
                List<TpchRunner.Outcome> outcomes = new TpchRunner(warpdb, setup.reference())
                        .runAll(TpchQueries.all(), System.out);
                return TpchRunner.allOk(outcomes) ? 0 : 1;
            }
        }
    }

    @Command(name = "bench", mixinStandardHelpOptions = true,
            description = "Time each query (median of --runs after --warmups) on WarpDB and DuckDB; print the ratios.")
    static final class Bench implements Callable<Integer> {
        @Mixin
        Common common;

        @Option(names = "--executor", description = "auto, cpu or gpu (default: auto).")
        String executor = "auto";

        @Option(names = "--warmups", description = "Untimed runs per query (default: 1).")
        int warmups = 1;

        @Option(names = "--runs", description = "Timed runs per query (default: 3).")
        int runs = 3;

        @Option(names = "--chart", description = "Also draw the per-query comparison as a PNG bar chart.")
        Path chart;

        @Override
        public Integer call() throws IOException {
            try (TpchSetup setup = setup(common); WarpDbTarget warpdb = setup.warpdb(executor)) {
                String title = "TPC-H SF " + format(common.scaleFactor) + ", WarpDB (" + executor + ") vs DuckDB";
                TpchBench.Report report = new TpchBench(warpdb, setup.reference(), warmups, runs)
                        .run(title, TpchQueries.all(), System.out);
                if (chart != null) {
                    BenchChart.write(report, chart);
                    System.err.println("chart written to " + chart);
                }
                return report.timings().stream().allMatch(TpchBench.Timing::counts) ? 0 : 1;
            }
        }
    }

    /** The database directory (loaded now unless an earlier run did) and DuckDB loaded with the same data. */
    private static TpchSetup setup(Common common) {
        PrintStream out = System.out;
        TpchSetup setup = TpchSetup.open(common.open(), common.source(), common.threads);
        if (setup.warpdbLoad() != null) {
            out.print(setup.warpdbLoad().format());
        } else {
            out.println("using the data loaded in " + common.dataDirectory());
        }
        out.print(setup.referenceLoad().format());
        return setup;
    }
}
