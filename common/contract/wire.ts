/**
 * JSON on the wire of the browser bridge, with bytes: a Uint8Array travels as `{ "$bytes": base64 }`
 * (IPC clones bytes natively; HTTP needs this). Node-free: the browser bridge and the web server
 * both use it (the server passes Buffer-based codecs for speed).
 */

export interface BytesCodec {
  encode(bytes: Uint8Array): string;
  decode(base64: string): Uint8Array;
}

export const browserCodec: BytesCodec = {
  encode(bytes) {
    let text = '';
    const chunk = 0x8000;
    for (let i = 0; i < bytes.length; i += chunk) text += String.fromCharCode(...bytes.subarray(i, i + chunk));
    return btoa(text);
  },
  decode(base64) {
    const text = atob(base64);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  },
};

export function toWire(value: unknown, codec: BytesCodec = browserCodec): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    // `this[key]` is the value before toJSON (a Buffer would otherwise arrive as { type, data }).
    const raw = this[key];
    if (raw instanceof Uint8Array) return { $bytes: codec.encode(raw) };
    return v;
  });
}

export function fromWire(text: string, codec: BytesCodec = browserCodec): unknown {
  // No bytes in the text (a grid page, most answers): the plain parse, several times faster than with a reviver.
  if (!text.includes('"$bytes"')) return JSON.parse(text);
  return JSON.parse(text, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      const b = (v as { $bytes?: unknown }).$bytes;
      if (keys.length === 1 && typeof b === 'string') return codec.decode(b);
    }
    return v;
  });
}
