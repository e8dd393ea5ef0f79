import net from 'node:net';

/**
 * A TCP proxy between the server and PostgreSQL that the test controls, standing in for a failing
 * network: `blackhole()` keeps every connection open and drops every byte both ways (packets
 * lost), `reset()` cuts every connection, `refuse()` cuts them and every new one at once (a
 * database that is down), `forward()` passes traffic again.
 */
export async function startDbProxy(target: URL) {
  let forwarding = true;
  let refusing = false;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const pair = { client, upstream };
    pairs.add(pair);
    const cut = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('data', (chunk) => forwarding && upstream.write(chunk));
    upstream.on('data', (chunk) => forwarding && client.write(chunk));
    for (const socket of [client, upstream]) {
      socket.on('error', cut);
      socket.on('close', cut);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    blackhole() {
      forwarding = false;
    },
    forward() {
      forwarding = true;
      refusing = false;
    },
    refuse() {
      refusing = true;
      this.reset();
    },
    reset() {
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    async close() {
      this.reset();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
