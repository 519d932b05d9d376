import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_ID,
  contentDisposition,
  fileNameProblem,
  newAttachmentId,
  normalizeMediaType,
  resolveMediaType,
  safeExtension,
} from '../../../../main/service/messages/attachments/media.js';
import { assessThreat, executableSignature, osExtension } from '../../../../common/messages/threat.js';

const bytes = (...b: number[]) => new Uint8Array(b);
const text = (s: string) => new TextEncoder().encode(s);
const MZ = bytes(0x4d, 0x5a, 0x90, 0x00);
const ELF = bytes(0x7f, 0x45, 0x4c, 0x46, 0x02);
const PDF = text('%PDF-1.7\n');
const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const ZIP = bytes(0x50, 0x4b, 0x03, 0x04, 0x14);

describe('threat check (threat.ts)', () => {
  it('recognises executable signatures: MZ, ELF, Mach-O, shebang', () => {
    expect(executableSignature(MZ)).toBe('pe');
    expect(executableSignature(ELF)).toBe('elf');
    for (const m of [
      [0xfe, 0xed, 0xfa, 0xce],
      [0xfe, 0xed, 0xfa, 0xcf],
      [0xce, 0xfa, 0xed, 0xfe],
      [0xcf, 0xfa, 0xed, 0xfe],
      [0xca, 0xfe, 0xba, 0xbe],
    ]) {
      expect(executableSignature(bytes(...m, 0))).toBe('mach-o');
    }
    expect(executableSignature(text('#!/usr/bin/env python\n'))).toBe('script');
    expect(executableSignature(PDF)).toBeUndefined();
    expect(executableSignature(bytes(0x4d))).toBeUndefined();
    expect(executableSignature(bytes())).toBeUndefined();
  });

  it('an MZ file named invoice.pdf is a threat, for its signature and the mismatch', () => {
    expect(assessThreat({ filename: 'invoice.pdf', mediaType: 'application/pdf', head: MZ })).toEqual({
      threat: true,
      reasons: ['executable_signature', 'extension_mismatch'],
    });
  });

  it('dangerous extensions are threats whatever the bytes, case and trailing dots aside', () => {
    for (const name of [
      'setup.exe',
      'RUN.BAT',
      'x.cmd',
      'a.com',
      'b.scr',
      'c.js',
      'd.vbs',
      'e.msi',
      'f.jar',
      'g.ps1',
      'h.sh',
      'i.apk',
      'j.dll',
      'evil.exe.',
      'evil.exe . .',
      'macro.xlsm',
    ]) {
      expect(assessThreat({ filename: name, head: text('hello') }), name).toMatchObject({ threat: true, reasons: ['dangerous_extension'] });
    }
    expect(assessThreat({ filename: 'tool.exe', head: MZ }).reasons).toEqual(['dangerous_extension', 'executable_signature']);
  });

  it('declared executable media types are threats', () => {
    expect(assessThreat({ filename: 'file', mediaType: 'application/x-msdownload', head: text('x') }).reasons).toEqual(['executable_media_type']);
  });

  it('ordinary documents and images are not threats', () => {
    for (const [name, type, head] of [
      ['factura.pdf', 'application/pdf', PDF],
      ['foto.png', 'image/png', PNG],
      ['planilla.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ZIP],
      ['notas.txt', 'text/plain', text('plain notes')],
      ['README', undefined, text('hola')],
    ] as const) {
      expect(assessThreat({ filename: name, mediaType: type, head }), name).toEqual({ threat: false, reasons: [] });
    }
  });

  it('osExtension is the last extension the OS would see', () => {
    expect(osExtension('a.tar.GZ')).toBe('gz');
    expect(osExtension('evil.exe...')).toBe('exe');
    expect(osExtension('.bashrc')).toBe('');
    expect(osExtension('noext')).toBe('');
  });
});

describe('file names and ids (media.ts)', () => {
  it('refuses separators, empty names, control characters and names over 255 characters', () => {
    expect(fileNameProblem('a/b')).toBe('separator');
    expect(fileNameProblem('a\\b')).toBe('separator');
    expect(fileNameProblem('')).toBe('empty');
    expect(fileNameProblem('   ')).toBe('empty');
    expect(fileNameProblem(undefined)).toBe('empty');
    expect(fileNameProblem('a\u0000b')).toBe('control');
    expect(fileNameProblem('a\u0085b')).toBe('control');
    expect(fileNameProblem('x'.repeat(256))).toBe('too_long');
    expect(fileNameProblem('ñ'.repeat(255))).toBeUndefined();
    expect(fileNameProblem('café ñ "quoted"; ok.pdf')).toBeUndefined();
  });

  it('keeps a safe extension in the id: [a-z0-9]{1,10}, lowercased', () => {
    expect(safeExtension('A.PDF')).toBe('pdf');
    expect(safeExtension('a.p-df')).toBe('');
    expect(safeExtension('a.')).toBe('');
    expect(safeExtension('.env')).toBe('');
    expect(safeExtension('a.abcdefghijk')).toBe('');
    expect(newAttachmentId('Doc.PDF')).toMatch(/^[0-9a-f]{32}\.pdf$/);
    expect(newAttachmentId('doc')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('property: every id matches ATTACHMENT_ID whatever the name', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (name) => ATTACHMENT_ID.test(newAttachmentId(name))));
  });
});

describe('media type rule (media.ts)', () => {
  it('normalises the declared type: lowercase, no parameters, valid syntax only', () => {
    expect(normalizeMediaType('Text/Plain; charset=UTF-8')).toBe('text/plain');
    expect(normalizeMediaType('nonsense')).toBeUndefined();
    expect(normalizeMediaType('text/plain\r\nX-Injected: 1')).toBeUndefined();
    expect(normalizeMediaType(undefined)).toBeUndefined();
  });

  it('applies the documented rule', () => {
    expect(resolveMediaType('application/pdf', MZ, 'invoice.pdf')).toBe('application/octet-stream');
    expect(resolveMediaType('application/x-msdownload', ELF, 'x')).toBe('application/octet-stream');
    expect(resolveMediaType('image/png', PNG, 'a.png')).toBe('image/png');
    expect(resolveMediaType('image/png', PDF, 'a.png')).toBe('application/pdf');
    expect(resolveMediaType('application/x-pdf', PDF, 'a.pdf')).toBe('application/pdf');
    expect(resolveMediaType(undefined, PNG, 'a')).toBe('image/png');
    expect(resolveMediaType('application/vnd.openxmlformats-officedocument.wordprocessingml.document', ZIP, 'a.docx')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(resolveMediaType('image/jpeg', ZIP, 'a.jpg')).toBe('application/zip');
    expect(resolveMediaType('image/jpeg', text('plain text'), 'a.jpg')).toBe('application/octet-stream');
    expect(resolveMediaType('text/plain', bytes(0x41, 0x00, 0x42), 'a.txt')).toBe('application/octet-stream');
    expect(resolveMediaType('application/octet-stream', text('a;b'), 'x.CSV')).toBe('text/csv');
    expect(resolveMediaType(undefined, text('hola'), 'x.txt')).toBe('text/plain');
    expect(resolveMediaType('application/octet-stream', text('hola'), 'x.bin')).toBe('application/octet-stream');
    expect(resolveMediaType('text/csv', text('#!/bin/sh'), 'x.csv')).toBe('text/csv');
    expect(resolveMediaType('application/json', text('{}'), 'x.json')).toBe('application/json');
  });
});

describe('Content-Disposition (RFC 6266 / 5987)', () => {
  it('escapes every name into a header value with an ASCII fallback and the exact UTF-8 name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), (name) => {
        const cd = contentDisposition(name);
        const m = /^attachment; filename="([\x20-\x7e]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]*)$/.exec(cd);
        expect(m, cd).not.toBeNull();
        expect(m![1]).not.toMatch(/["\\%]/);
        expect(decodeURIComponent(m![2]!)).toBe(name);
      }),
    );
  });

  it('turns accents into their base letters in the fallback', () => {
    expect(contentDisposition('Ñandú café.pdf')).toBe(`attachment; filename="Nandu cafe.pdf"; filename*=UTF-8''%C3%91and%C3%BA%20caf%C3%A9.pdf`);
  });
});
