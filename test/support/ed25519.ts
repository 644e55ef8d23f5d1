/**
 * An Ed25519 key pair as Discord holds one for an application: the public key in the hex form the Developer
 * Portal shows (what `DISCORD_PUBLIC_KEY` takes) and a signer of `timestamp + body`, for signed interactions.
 */
import { generateKeyPairSync, sign } from 'node:crypto';

export interface DiscordSigner {
  /** 64 hex characters. */
  publicKeyHex: string;
  /** The `X-Signature-Ed25519` header for a request with this timestamp and raw body. */
  sign(timestamp: string, body: string): string;
}

export function discordSigner(): DiscordSigner {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    publicKeyHex: Buffer.from(jwk.x as string, 'base64url').toString('hex'),
    sign: (timestamp, body) => sign(null, Buffer.from(timestamp + body), privateKey).toString('hex'),
  };
}
