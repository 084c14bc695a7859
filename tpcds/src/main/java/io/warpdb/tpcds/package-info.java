/**
 * TPC-DS for WarpDB: data at any scale factor (io.trino.tpcds), the 24-table schema, the 99
 * queries, answers checked against DuckDB. It reuses the TPC-H suite's machinery (module tpch):
 * {@code TableLoader}, {@code DuckDbReference}, {@code SuiteSetup}, {@code SuiteRunner},
 * {@code SuiteBench}, {@code AnswerChecker}. What each {@code warpdb tpcds} command does:
 * <pre>{@code
 * TpcdsGenerator data = new TpcdsGenerator(sf);
 * // gen:   data.writeDat(TpcdsSchema.tables(), dir, threads)       -> LoadReport; new DatFiles(dir).parts(tables) reads them back
 * // load:  TableLoader.load(database, data.parts(TpcdsSchema.tables()), threads, data.describe())
 * // run:   try (SuiteSetup setup = SuiteSetup.open(Database.inMemory("tpcds"), data.parts(TpcdsSchema.tables()),
 * //                threads, data.describe());
 * //             WarpDbTarget warpdb = setup.warpdb(executor)) {
 * //           new SuiteRunner(warpdb, setup.reference()).runAll(TpcdsQueries.all(), System.out);
 * //       }
 * }</pre>
 */
package io.warpdb.tpcds;
