package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.ConnectStringParser;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Helper;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * The embedded JDBC driver: {@code jdbc:warpdb:mem:<name>[;property=value...]} (in memory) or
 * {@code jdbc:warpdb:/path/to/dir[;...]} (durable, created when missing) runs WarpDB in this JVM.
 * Connections that name the same database share it; it stays open until the last of them
 * closes. Properties: {@code executor=auto|cpu|gpu}. {@code jdbc:warpdb:remote:http[s]://HOST:PORT}
 * connects to a WarpDB server instead (see {@link RemoteConnector}).
 */
public final class WarpDriver extends UnregisteredDriver {
    public static final String PREFIX = "jdbc:warpdb:";

    /** The driver and product version, from the build. */
    public static final DriverVersion VERSION = DriverVersion.load(WarpDriver.class, "io-warpdb-jdbc.properties",
            "WarpDB JDBC Driver", "unknown", "WarpDB", "unknown");

    static {
        new WarpDriver().register();
    }

    @Override
    protected String getConnectStringPrefix() {
        return PREFIX;
    }

    @Override
    protected DriverVersion createDriverVersion() {
        return VERSION;
    }

    @Override
    public Meta createMeta(AvaticaConnection connection) {
        return WarpMeta.embedded(connection);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        String rest = url.substring(PREFIX.length());
        if (rest.startsWith(RemoteConnector.PREFIX)) {
            return RemoteConnector.connect(rest.substring(RemoteConnector.PREFIX.length()), info);
        }
        int options = rest.indexOf(';');
        String target = rest.substring(0, options < 0 ? rest.length() : options);
        boolean memory = target.startsWith(Databases.MEMORY);
        if ((memory ? target.substring(Databases.MEMORY.length()) : target).isBlank()) {
            throw new SQLException("the URL names no database: use jdbc:warpdb:mem:<name> or jdbc:warpdb:/path/to/dir",
                    SqlState.CONNECTION_EXCEPTION.code());
        }
        Properties properties = ConnectStringParser.parse(options < 0 ? "" : rest.substring(options + 1), info);
        properties.setProperty(WarpMeta.DATABASE, memory ? target : Databases.directory(target));
        AvaticaConnection connection = factory.newConnection(this, factory, url, properties);
        try {
            // Avatica leaves opening to the driver; this is where the session starts.
            connection.openConnection();
        } catch (RuntimeException e) {
            throw Helper.INSTANCE.createException("cannot connect to " + url + ": " + e.getMessage(), e);
        }
        handler.onConnectionInit(connection);
        return CancellableStatements.wrap(connection, connection.handle.id, ConnectionState::cancelRunning);
    }
}
