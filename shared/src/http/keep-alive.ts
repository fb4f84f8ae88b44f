/**
 * How long both servers keep an idle keep-alive connection: longer than the 60 s idle timeout of
 * common reverse proxies and load balancers, so that the client side closes first. With Node's
 * default of 5 s, a proxy (or any pooling client) that reuses a connection the server is closing
 * at that moment gets a reset, answered as a 502 or a failed request (docs/operations.md).
 */
export const keepAliveTimeoutMs = 65_000;
