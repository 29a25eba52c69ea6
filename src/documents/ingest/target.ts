// Checks one hop of a URL fetch before any byte is sent: the scheme is http(s) and every address
// the host resolves to is public. The vetted address is the one connected to, so a DNS answer that
// changes between check and connect (rebinding) cannot redirect the request.
import dns from 'node:dns';
import net from 'node:net';
import { ApiError, invalid } from '../../errors/catalogue.js';
import { isPrivateAddress } from './privateAddress.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; injectable so tests can play DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface VettedTarget {
  url: URL;
  /** URL host name without IPv6 brackets, as sent in Host and TLS SNI. */
  hostname: string;
  /** Every address the host resolved to, all vetted; connections go only to these. */
  addresses: [ResolvedAddress, ...ResolvedAddress[]];
}

export const URL_FIELD = '/body/url';

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function refuse(reason: string): ApiError {
  return invalid(URL_FIELD, reason, `url refused: ${reason}`);
}

/** Parses a URL and accepts only http and https. */
export function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refuse(`scheme ${url.protocol.replace(/:$/, '')} is not allowed; use http or https`);
  }
  return url;
}

/** Resolves the URL's host and refuses it if any of its addresses is private (unless allowed). */
export async function vetTarget(url: URL, allowPrivate: boolean, resolve: Resolver): Promise<VettedTarget> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = net.isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') throw refuse(`host ${hostname} does not exist`);
      throw new ApiError('upstream_error', `could not resolve ${hostname}: ${code ?? 'lookup failed'}`);
    }
  }
  const [first, ...rest] = addresses;
  if (first === undefined) throw refuse(`host ${hostname} has no address`);
  if (!allowPrivate) {
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked !== undefined) {
      // The address itself is not named: the answer would tell a caller what internal names resolve to.
      throw refuse(`host ${hostname} resolves to a private address, which may not be fetched`);
    }
  }
  return { url, hostname, addresses: [first, ...rest] };
}
