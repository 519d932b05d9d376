/**
 * The `potential_security_threat` flag of an attachment (SPEC 2.8), in common/ so the inbox flags a
 * file on drop by the same rules the service applies on upload (issue 27). A cheap, documented
 * heuristic over what the upload already gives us (the client's file name, the declared media
 * type and the first bytes of the content); it warns the counterparty, it never blocks a file.
 *
 * A file is a potential threat when any rule below matches:
 * 1. `dangerous_extension`: the file name's last extension (lowercased, trailing dots and spaces
 *    removed, as Windows does when it opens "evil.exe.") is in DANGEROUS_EXTENSIONS;
 * 2. `executable_media_type`: the declared media type is one of EXECUTABLE_MEDIA_TYPES;
 * 3. `executable_signature`: the content starts with an executable signature: "MZ" (DOS/Windows
 *    PE), "\x7fELF" (Linux/Unix), a Mach-O magic number (FEEDFACE, FEEDFACF, CEFAEDFE, CFFAEDFE,
 *    CAFEBABE: universal binaries and Java classes), or "#!" (a script with an interpreter line);
 * 4. `extension_mismatch`: rule 3 matched while the name has a harmless-looking extension (or
 *    none): an executable disguised as e.g. "invoice.pdf". Reported in addition to rule 3.
 */

/** Executables, scripts, installers, libraries and macro-enabled documents. */
export const DANGEROUS_EXTENSIONS: ReadonlySet<string> = new Set([
  // Windows executables, libraries and installers
  'exe',
  'com',
  'scr',
  'pif',
  'dll',
  'sys',
  'cpl',
  'msi',
  'msp',
  'mst',
  'msc',
  'appx',
  'appxbundle',
  'msix',
  'gadget',
  // Windows scripts and shortcuts
  'bat',
  'cmd',
  'js',
  'jse',
  'vbs',
  'vbe',
  'vb',
  'wsf',
  'wsh',
  'ws',
  'wsc',
  'hta',
  'ps1',
  'psm1',
  'psd1',
  'ps1xml',
  'reg',
  'lnk',
  'inf',
  'scf',
  'url',
  'application',
  'settingcontent',
  // Unix and macOS executables and scripts, installers
  'sh',
  'bash',
  'zsh',
  'csh',
  'ksh',
  'command',
  'run',
  'bin',
  'elf',
  'so',
  'dylib',
  'app',
  'dmg',
  'pkg',
  'deb',
  'rpm',
  // Java and Android, mobile packages
  'jar',
  'class',
  'apk',
  'xapk',
  'ipa',
  // Disk images that carry executables past mail filters
  'iso',
  'img',
  'vhd',
  'vhdx',
  // Office documents with macros
  'docm',
  'dotm',
  'xlsm',
  'xltm',
  'xlam',
  'pptm',
  'potm',
  'ppam',
  'sldm',
]);

/** Declared media types of executable content. */
export const EXECUTABLE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/x-msdownload',
  'application/x-msdos-program',
  'application/x-dosexec',
  'application/x-ms-installer',
  'application/x-msi',
  'application/x-executable',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/x-sh',
  'application/x-shellscript',
  'text/x-shellscript',
  'application/x-bat',
  'application/x-csh',
  'application/javascript',
  'text/javascript',
  'application/x-javascript',
  'application/java-archive',
  'application/x-java-archive',
  'application/vnd.android.package-archive',
  'application/vnd.microsoft.portable-executable',
  'application/hta',
]);

export type ExecutableKind = 'pe' | 'elf' | 'mach-o' | 'script';

const startsWith = (head: Uint8Array, bytes: number[]) => bytes.every((b, i) => head[i] === b);

/** The executable format the first bytes announce, if any. */
export function executableSignature(head: Uint8Array): ExecutableKind | undefined {
  if (startsWith(head, [0x4d, 0x5a])) return 'pe'; // "MZ"
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return 'elf'; // "\x7fELF"
  const machO = [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
    [0xca, 0xfe, 0xba, 0xbe],
  ];
  if (machO.some((m) => startsWith(head, m))) return 'mach-o';
  if (startsWith(head, [0x23, 0x21])) return 'script'; // "#!"
  return undefined;
}

/** The last extension of a file name as the OS would see it: lowercased, trailing dots and spaces removed. */
export function osExtension(filename: string): string {
  const name = filename.replace(/[. ]+$/, '');
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export type ThreatReason = 'dangerous_extension' | 'executable_media_type' | 'executable_signature' | 'extension_mismatch';

export interface ThreatInput {
  /** The client's file name. */
  filename: string;
  /** The declared media type (lowercase, without parameters), if any. */
  mediaType?: string | undefined;
  /** The first bytes of the content (16 are enough). */
  head: Uint8Array;
}

export interface ThreatVerdict {
  threat: boolean;
  reasons: ThreatReason[];
}

export function assessThreat(input: ThreatInput): ThreatVerdict {
  const reasons: ThreatReason[] = [];
  const ext = osExtension(input.filename);
  const dangerousExt = DANGEROUS_EXTENSIONS.has(ext);
  if (dangerousExt) reasons.push('dangerous_extension');
  if (input.mediaType !== undefined && EXECUTABLE_MEDIA_TYPES.has(input.mediaType)) reasons.push('executable_media_type');
  if (executableSignature(input.head) !== undefined) {
    reasons.push('executable_signature');
    if (!dangerousExt) reasons.push('extension_mismatch');
  }
  return { threat: reasons.length > 0, reasons };
}
