/**
 * The fields a forwarder does not pass on (RFC 9110, section 7.6.1): they belong to one connection,
 * not to the message. Both of the kit's forwarders use this one list: the checking proxy (proxy/)
 * and the loopback forwarder behind `plant-store verify` (contracts/forwarder.ts).
 */

/**
 * The hop-by-hop fields RFC 9110, section 7.6.1 names: Connection itself, and those an intermediary
 * removes whether or not Connection names them - Proxy-Connection (the pre-standard one, RFC 9112,
 * appendix C.2.2), Keep-Alive, TE, Transfer-Encoding and Upgrade.
 */
export const HOP_BY_HOP: readonly string[] = ['connection', 'proxy-connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade'];

/**
 * The names, lower case, of the fields not to forward for a message whose Connection field lines
 * are `connection`: HOP_BY_HOP, every connection option they name (section 7.6.1), and `reframed`,
 * the fields the forwarder writes itself because it frames what it sends.
 */
export function hopByHopFields(connection: readonly string[], reframed: readonly string[] = []): Set<string> {
  const dropped = new Set([...HOP_BY_HOP, ...reframed]);
  for (const line of connection) for (const option of line.split(',')) if (option.trim() !== '') dropped.add(option.trim().toLowerCase());
  return dropped;
}

/** Header pairs as node's `rawHeaders` gives them (name, value, name, value...), less the hop-by-hop ones. */
export function endToEnd(raw: readonly string[], reframed: readonly string[] = []): [name: string, value: string][] {
  const connection: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]?.toLowerCase() === 'connection') connection.push(raw[i + 1] as string);
  const dropped = hopByHopFields(connection, reframed);
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (!dropped.has(name.toLowerCase())) pairs.push([name, raw[i + 1] as string]);
  }
  return pairs;
}
