// Starts the real Neo4j 5.26 Community engine embedded in this JVM with a Bolt connector, for local
// runs and tests on machines without Docker. Run with: java -cp ".cache/neo4j/lib/*" Launcher.java
// Settings come from environment variables (see README): GKS_NEO4J_DATA, GKS_NEO4J_BOLT_HOST,
// GKS_NEO4J_BOLT_PORT, GKS_NEO4J_PAGECACHE_MB, GKS_NEO4J_TX_TIMEOUT_S (seconds),
// GKS_NEO4J_VECTOR_MERGE_FACTOR (internal.dbms.index.vector.standard_merge_factor, default 4), and
// GKS_NEO4J_PASSWORD: when set, authentication is on and the neo4j user's password is set to it at
// every start (the service generates one per data folder); unset, the engine runs without auth.
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.Config;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.api.impl.index.LuceneSettings;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

public class Launcher {
    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(env("GKS_NEO4J_DATA", ".data/neo4j")).toAbsolutePath();
        String host = env("GKS_NEO4J_BOLT_HOST", "127.0.0.1");
        int port = Integer.parseInt(env("GKS_NEO4J_BOLT_PORT", "7687"));
        long pageCacheMb = Long.parseLong(env("GKS_NEO4J_PAGECACHE_MB", "512"));
        long txTimeoutSeconds = Long.parseLong(env("GKS_NEO4J_TX_TIMEOUT_S", "300"));
        String password = env("GKS_NEO4J_PASSWORD", "");
        int vectorMergeFactor = Integer.parseInt(env("GKS_NEO4J_VECTOR_MERGE_FACTOR", "4"));

        long started = System.nanoTime();
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(dataDir)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(host, port))
                .setConfig(GraphDatabaseSettings.auth_enabled, !password.isEmpty())
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMb))
                .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofSeconds(txTimeoutSeconds))
                // Timeouts are enforced by a monitor that looks every 2 s by default, so a transaction
                // could outrun its timeout by up to 2 s (docs/operations.md, "Transaction timeouts").
                .setConfig(GraphDatabaseSettings.transaction_monitor_check_interval, Duration.ofMillis(100))
                // A vector index merges its Lucene segments once this many of a size are written (Neo4j's
                // default, 50, left 46 segments after 100k vectors written 16 at a time, each searched on every
                // query; at 4, the same query took a third of the time: docs/operations.md, "Vector indexes").
                .setConfig(LuceneSettings.vector_standard_merge_factor, vectorMergeFactor)
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("neo4j-launcher: shutting down");
            dbms.shutdown();
            System.out.println("neo4j-launcher: stopped");
            stopped.countDown();
        }, "neo4j-shutdown"));

        if (!password.isEmpty()) {
            // Embedded code acts without authentication: it sets the one user's password. Neo4j refuses
            // setting the password it already has (every restart after the first): that is success.
            try {
                dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME).executeTransactionally(
                        "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
            } catch (RuntimeException e) {
                String message = String.valueOf(e.getMessage()) + " " + String.valueOf(e.getCause());
                if (!message.contains("cannot be the same")) {
                    System.err.println("neo4j-launcher: could not set the password: " + message);
                    dbms.shutdown();
                    System.exit(1);
                }
            }
        }
        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        db.executeTransactionally("RETURN 1");
        // The engine's own reading of the internal setting (dbms.listConfig hides internal settings).
        Config effective = ((GraphDatabaseAPI) db).getDependencyResolver().resolveDependency(Config.class);
        System.out.println("neo4j-launcher: internal.dbms.index.vector.standard_merge_factor="
                + effective.get(LuceneSettings.vector_standard_merge_factor));
        long ms = (System.nanoTime() - started) / 1_000_000;
        // The supervisor waits for this exact line before it connects.
        System.out.println("neo4j-launcher: ready bolt://" + host + ":" + port + " data=" + dataDir + " in " + ms + "ms");
        System.out.flush();
        stopped.await();
    }
}
