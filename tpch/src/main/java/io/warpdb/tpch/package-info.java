/**
 * TPC-H for WarpDB: data at any scale factor, the 22 queries, answers checked against DuckDB,
 * and the benchmark. What each {@code warpdb tpch} command does with it:
 * <pre>{@code
 * TpchData data = dir != null ? new TblFiles(dir) : new TpchGenerator(sf);
 * // gen:   TblFiles.write(new TpchGenerator(sf), dir, threads)            -> LoadReport
 * // load:  TpchLoader.load(database, data, threads)                       -> LoadReport
 * // run:   try (TpchSetup setup = TpchSetup.load(data, threads);
 * //             WarpDbTarget warpdb = setup.warpdb(executor)) {
 * //           List<TpchRunner.Outcome> outcomes =
 * //               new TpchRunner(warpdb, setup.reference()).runAll(TpchQueries.all(), System.out);
 * //           exit code = TpchRunner.allOk(outcomes) ? 0 : 1;
 * //       }
 * // bench: List<TpchQuery> queries = TpchQueries.select(List.of(1, 6));  // empty: all 22
 * //        TpchSetup setup = TpchSetup.open(Database.inMemory("tpch"), data, threads, TpchQueries.tablesRead(queries));
 * //        TpchBench.Report report = new TpchBench(Map.of("cpu", setup.warpdb("cpu")), setup.reference(), warmups, runs)
 * //             .run(title, queries, System.out);
 * //        BenchChart.write(report, png);
 * }</pre>
 */
package io.warpdb.tpch;
