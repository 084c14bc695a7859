package io.warpdb.tools;

import io.warpdb.sql.Database;
import io.warpdb.sql.TableProperties;
import io.warpdb.tpcds.DatFiles;
import io.warpdb.tpcds.TpcdsGenerator;
import io.warpdb.tpcds.TpcdsQueries;
import io.warpdb.tpcds.TpcdsQuery;
import io.warpdb.tpcds.TpcdsSchema;
import io.warpdb.tpch.LoadReport;
import io.warpdb.tpch.QueryTarget;
import io.warpdb.tpch.SuiteBench;
import io.warpdb.tpch.SuiteRunner;
import io.warpdb.tpch.SuiteSetup;
import io.warpdb.tpch.TableLoader;
import io.warpdb.tpch.TableParts;
import io.warpdb.tpch.WarpDbTarget;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code warpdb tpcds gen|load|run|bench}: the bundled TPC-DS suite. Data is generated with
 * io.trino.tpcds, or read from the .dat files that {@code gen} writes ({@code --dat}), and kept in
 * a durable WarpDB database directory, loaded on first use, or with {@code --in-memory} loaded
 * into memory on every run; DuckDB, loaded in-process with the same data (from the same files by
 * its own read_csv), is the reference answer and the benchmark peer.
 */
@Command(name = "tpcds", mixinStandardHelpOptions = true, description = "Generate, load, run and benchmark TPC-DS.",
        subcommands = {TpcdsCommand.Gen.class, TpcdsCommand.Load.class, TpcdsCommand.Run.class, TpcdsCommand.Bench.class})
public final class TpcdsCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** Options every subcommand shares. */
    static final class Common extends SuiteOptions {
        @Override
        String suite() {
            return "tpcds";
        }

        @Option(names = "--dat", paramLabel = "DIR",
                description = "Read the .dat files of tpcds gen (or dsdgen) from DIR instead of generating; DuckDB reads them"
                        + " with its own read_csv.")
        Path dat;

        TpcdsGenerator generator() {
            return new TpcdsGenerator(scaleFactor);
        }

        /** These tables' rows: read from the .dat files when --dat names them, else generated. */
        List<TableParts> parts(List<TpcdsSchema.Table> tables) {
            return dat != null ? new DatFiles(dat).parts(tables) : generator().parts(tables);
        }

        /** Where the rows come from, for the load reports. */
        String describe() {
            return dat != null ? new DatFiles(dat).describe() : generator().describe();
        }
    }

    /** Which queries run and bench run; only the tables they read are loaded. */
    static final class QuerySelection {
        @Option(names = "--queries", split = ",", paramLabel = "N",
                description = "Query numbers to run, e.g. 3,42 (default: all 99); only the tables they read are loaded.")
        List<Integer> numbers = List.of();

        List<TpcdsQuery> queries() {
            return TpcdsQueries.select(numbers);
        }
    }

    @Command(name = "gen", mixinStandardHelpOptions = true,
            description = "Write the data as dsdgen .dat files (pipe-delimited, NULL as an empty field).")
    static final class Gen implements Callable<Integer> {
        @Mixin
        Common common;

        @Option(names = "--out", description = "Directory for the .dat files (default: data/tpcds-sf<SF>-dat).")
        Path out;

        @Override
        public Integer call() {
            if (common.dat != null) {
                throw new IllegalArgumentException("gen writes the .dat files: name their directory with --out, not --dat");
            }
            Path dir = out != null ? out : Path.of("data", "tpcds-sf" + SuiteOptions.format(common.scaleFactor) + "-dat");
            System.out.print(common.generator().writeDat(TpcdsSchema.tables(), dir, common.threads).format());
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
                TpcdsSchema.tables().forEach(t -> TableProperties.dropTable(db.catalog(), t.name(), true));
                LoadReport report = TableLoader.load(db, common.parts(TpcdsSchema.tables()), common.threads, common.describe());
                System.out.print(report.format());
            }
            return 0;
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run the queries once and check every answer against DuckDB; exit 1 on any FAIL.")
    static final class Run implements Callable<Integer> {
        @Mixin
        Common common;

        @Mixin
        QuerySelection selection;

        @Option(names = "--executor", description = "auto, cpu or gpu (default: auto).")
        String executor = "auto";

        @Option(names = "--explain-analyze", paramLabel = "FILE",
                description = "After the checks, run each query once more under EXPLAIN ANALYZE and write its plan to FILE: the"
                        + " executor, rows, time, kernel time, copies and device-memory traffic of every node; at the end, every"
                        + " node left on the CPU with the reason its executor gave and, on the GPU, each query's roofline.")
        Path explainAnalyze;

        @Override
        public Integer call() {
            List<TpcdsQuery> queries = selection.queries();
            try (SuiteSetup setup = setup(common, queries, List.of(executor)); WarpDbTarget warpdb = setup.warpdb(executor)) {
                List<SuiteRunner.Outcome> outcomes = new SuiteRunner(warpdb, setup.reference()).runAll(queries, System.out);
                if (explainAnalyze != null) {
                    ExplainAnalyzeFile.write(List.of(warpdb), queries, explainAnalyze,
                            RooflineTable.H100_COPY_GIGABYTES_PER_SECOND);
                }
                return SuiteRunner.allOk(outcomes) ? 0 : 1;
            }
        }
    }

    @Command(name = "bench", mixinStandardHelpOptions = true,
            description = "Time each query (median of --runs after --warmups) on each WarpDB executor and on DuckDB; print the ratios.")
    static final class Bench implements Callable<Integer> {
        @Mixin
        Common common;

        @Mixin
        QuerySelection selection;

        @Option(names = "--executor", split = ",", paramLabel = "EXECUTOR",
                description = "auto, cpu or gpu, or several to compare on the same data, e.g. cpu,gpu (default: auto).")
        List<String> executors = List.of("auto");

        @Option(names = "--warmups", description = "Untimed runs per query (default: 1).")
        int warmups = 1;

        @Option(names = "--runs", description = "Timed runs per query (default: 3).")
        int runs = 3;

        @Option(names = "--explain-analyze", paramLabel = "FILE",
                description = "After timing, run each query once more under EXPLAIN ANALYZE on the first executor and write the"
                        + " plans to FILE, then every node left on the CPU with the reason its executor gave.")
        Path explainAnalyze;

        @Override
        public Integer call() throws Exception {
            List<TpcdsQuery> queries = selection.queries();
            Map<String, QueryTarget> targets = new LinkedHashMap<>();
            List<WarpDbTarget> opened = new ArrayList<>();
            try (SuiteSetup setup = setup(common, queries, executors)) {
                for (String e : executors) {
                    WarpDbTarget target = setup.warpdb(e);
                    opened.add(target);
                    targets.put(e, target);
                }
                String title = "TPC-DS SF " + SuiteOptions.format(common.scaleFactor) + ", WarpDB (" + String.join(", ", executors)
                        + ") vs DuckDB";
                SuiteBench.Report report = new SuiteBench(targets, setup.reference(), warmups, runs).run(title, queries, System.out);
                if (explainAnalyze != null) {
                    ExplainAnalyzeFile.write(List.of(targets.get(executors.get(0))), queries, explainAnalyze,
                            RooflineTable.H100_COPY_GIGABYTES_PER_SECOND);
                }
                return report.timings().stream().allMatch(SuiteBench.Timing::counts) ? 0 : 1;
            } finally {
                opened.forEach(WarpDbTarget::close);
            }
        }
    }

    private static SuiteSetup setup(Common common, List<TpcdsQuery> queries, List<String> executors) {
        return common.setup(common.parts(TpcdsQueries.tablesRead(queries)), common.describe(), executors);
    }
}
