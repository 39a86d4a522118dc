package codehealth;

import java.nio.file.Path;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;

/**
 * Starts an embedded Neo4j Community server with only its Bolt connector, on 127.0.0.1:<port>,
 * storing its files in <dir>; prints "ready" once it accepts connections and stops on SIGTERM.
 * Usage: Neo4jLauncher <dir> <port>
 */
public final class Neo4jLauncher {
  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    int port = Integer.parseInt(args[1]);
    DatabaseManagementService service = new DatabaseManagementServiceBuilder(dir)
        .setConfig(BoltConnector.enabled, true)
        .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
        .build();
    service.database("neo4j");
    Runtime.getRuntime().addShutdownHook(new Thread(service::shutdown));
    System.out.println("ready");
    System.out.flush();
  }
}
