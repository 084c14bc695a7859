package io.warpdb.tools;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warpdb demo}: builds a small sales database through JDBC and runs a few analytic
 * queries on it, printing each result. The data is generated from a fixed seed, so every run
 * prints the same rows.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Create a small sales database, load it through JDBC and run a few queries (joins, "
                + "grouping, ordering), printing the results.")
final class DemoCommand implements Callable<Integer> {
    private static final int SALES = 20_000;
    private static final int ROWS_PER_INSERT = 1_000;
    private static final String[] REGIONS = {"Africa", "America", "Asia", "Europe", "Oceania"};
    private static final String[] PRODUCTS = {"Anvil", "Bolt", "Cog", "Drill", "Engine", "Flange", "Gear", "Hinge"};
    private static final int CUSTOMERS = 200;

    private record Query(String title, String sql) {
    }

    private static final List<Query> QUERIES = List.of(
        new Query("Revenue by region", """
            SELECT r.name AS region, COUNT(*) AS sales, SUM(s.quantity * p.price) AS revenue
            FROM sales s
            JOIN customer c ON s.customer_id = c.id
            JOIN region r ON c.region_id = r.id
            JOIN product p ON s.product_id = p.id
            GROUP BY r.name
            ORDER BY revenue DESC"""),
        new Query("Best-selling products in the second half of 2024", """
            SELECT p.name AS product, SUM(s.quantity) AS units, MIN(s.sold) AS first_sale, MAX(s.sold) AS last_sale
            FROM sales s JOIN product p ON s.product_id = p.id
            WHERE s.sold >= DATE '2024-07-01'
            GROUP BY p.name
            ORDER BY units DESC, product
            LIMIT 5"""),
        new Query("Top customers", """
            SELECT c.name AS customer, r.name AS region, SUM(s.quantity * p.price) AS spent
            FROM sales s
            JOIN customer c ON s.customer_id = c.id
            JOIN region r ON c.region_id = r.id
            JOIN product p ON s.product_id = p.id
            GROUP BY c.name, r.name
            ORDER BY spent DESC, customer
            LIMIT 5"""));

    @Option(names = {"-u", "--url"}, description = "JDBC URL of the database to use; it must not hold the demo's "
            + "tables already (default: ${DEFAULT-VALUE}).")
    String url = "jdbc:warpdb:mem:demo";

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws SQLException {
        PrintWriter out = spec.commandLine().getOut();
        try (Connection connection = DriverManager.getConnection(url); Statement s = connection.createStatement()) {
            out.println("Connected to " + url);
            load(s, out);
            for (Query query : QUERIES) {
                out.println();
                out.println("-- " + query.title());
                out.println(query.sql());
                long start = System.nanoTime();
                try (ResultSet rs = s.executeQuery(query.sql())) {
                    int rows = TablePrinter.print(rs, out);
                    out.printf("%d rows in %d ms%n", rows, (System.nanoTime() - start) / 1_000_000);
                }
            }
        }
        out.flush();
        return 0;
    }

    private static void load(Statement s, PrintWriter out) throws SQLException {
        s.executeUpdate("CREATE TABLE region (id INTEGER NOT NULL, name VARCHAR(20) NOT NULL)");
        s.executeUpdate("CREATE TABLE customer (id INTEGER NOT NULL, name VARCHAR(20) NOT NULL, region_id INTEGER NOT NULL)");
        s.executeUpdate("CREATE TABLE product (id INTEGER NOT NULL, name VARCHAR(20) NOT NULL, price DECIMAL(10,2) NOT NULL)");
        s.executeUpdate("CREATE TABLE sales (customer_id INTEGER NOT NULL, product_id INTEGER NOT NULL, "
                + "quantity INTEGER NOT NULL, sold DATE NOT NULL)");
        Random random = new Random(42);
        StringBuilder sql = new StringBuilder("INSERT INTO region VALUES ");
        for (int i = 0; i < REGIONS.length; i++) {
            sql.append(i == 0 ? "" : ", ").append("(").append(i).append(", '").append(REGIONS[i]).append("')");
        }
        s.executeUpdate(sql.toString());
        sql = new StringBuilder("INSERT INTO product VALUES ");
        for (int i = 0; i < PRODUCTS.length; i++) {
            BigDecimal price = BigDecimal.valueOf(100 + random.nextInt(99_900), 2);
            sql.append(i == 0 ? "" : ", ").append("(").append(i).append(", '").append(PRODUCTS[i]).append("', ").append(price).append(")");
        }
        s.executeUpdate(sql.toString());
        sql = new StringBuilder("INSERT INTO customer VALUES ");
        for (int i = 0; i < CUSTOMERS; i++) {
            sql.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'customer-").append(i).append("', ")
                    .append(random.nextInt(REGIONS.length)).append(")");
        }
        s.executeUpdate(sql.toString());
        LocalDate firstDay = LocalDate.of(2024, 1, 1);
        for (int done = 0; done < SALES; done += ROWS_PER_INSERT) {
            sql = new StringBuilder("INSERT INTO sales VALUES ");
            for (int i = 0; i < ROWS_PER_INSERT; i++) {
                sql.append(i == 0 ? "" : ", ").append("(").append(random.nextInt(CUSTOMERS)).append(", ")
                        .append(random.nextInt(PRODUCTS.length)).append(", ").append(1 + random.nextInt(10))
                        .append(", DATE '").append(firstDay.plusDays(random.nextInt(366))).append("')");
            }
            s.executeUpdate(sql.toString());
        }
        out.printf("Loaded %d regions, %d products, %d customers and %d sales.%n", REGIONS.length, PRODUCTS.length,
                CUSTOMERS, SALES);
    }
}
