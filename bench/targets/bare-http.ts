import { createServer } from 'node:http';

/**
 * The floor for HTTP figures: node:http answering a fixed JSON body of the same size as a stock
 * read, with keep-alive. Anything the real server does costs more than this.
 */
const body = JSON.stringify({
  id: 'MLAU000000001',
  user_id: 7000001,
  locations: Array.from({ length: 10 }, (_, s) => ({ type: 'seller_warehouse', quantity: 10 + s, store_id: String(8000000 + s), network_node_id: `NODE${s}` })),
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-version': '1' });
    res.end(body);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  console.log(`bare http listening on http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
