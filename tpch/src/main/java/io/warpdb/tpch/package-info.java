/**
 * TPC-H for WarpDB: data at any scale factor, the 22 queries, answers checked against DuckDB,
 * and the benchmark. What each {@code warpdb tpch} command does with it:
 * <pre>{@code
 * TpchData data = dir != null ? new TblFiles(dir) : new TpchGenerator(sf);
 * // gen:   TblFiles.write(new TpchGenerator(sf), dir, threads)            -> LoadReport
 * // load:  TpchLoader.load(database, data, threads)                       -> LoadReport
 * // run:   try (SuiteSetup setup = SuiteSetup.loadTpch(data, threads);
 * //             WarpDbTarget warpdb = setup.warpdb(executor)) {
 * //           List<SuiteRunner.Outcome> outcomes =
 * //               new SuiteRunner(warpdb, setup.reference()).runAll(TpchQueries.all(), System.out);
 * //           exit code = SuiteRunner.allOk(outcomes) ? 0 : 1;
 * //       }
 * // bench: List<TpchQuery> queries = TpchQueries.select(List.of(1, 6));  // empty: all 22
 * //        SuiteSetup setup = SuiteSetup.open(Database.inMemory("tpch"), TpchLoader.parts(data, TpchQueries.tablesRead(queries)), threads, data.describe());
 * //        SuiteBench.Report report = new SuiteBench(Map.of("cpu", setup.warpdb("cpu")), setup.reference(), warmups, runs)
 * //             .run(title, queries, System.out);
 * //        BenchChart.write(report, png);
 * }</pre>
 */
package io.warpdb.tpch;
