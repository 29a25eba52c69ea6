import assert from 'node:assert/strict';
import { ApiError } from '../../../src/errors/catalogue.js';
import { extractText, markdownTitle, sniffMimeType } from '../../../src/documents/ingest/extractText.js';
import { minimalPdf } from './minimalPdf.js';

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('extractText', () => {
  it('takes plain text as it is, with Windows line endings normalized', async () => {
    const result = await extractText({
      data: utf8('\uFEFFLine one\r\nLine two\r\n'),
      mimeType: 'text/plain',
      filename: 'notes.txt',
    });
    assert.deepEqual(result, { title: null, text: 'Line one\nLine two', mimeType: 'text/plain' });
  });

  it('takes markdown as it is, titled by its first # heading outside code', async () => {
    const markdown = '```sh\n# not a title\n```\n\nIntro\n\n## Sub\n\n# Real Title #\n\nBody *text*.';
    const result = await extractText({
      data: utf8(markdown),
      mimeType: 'application/octet-stream',
      filename: 'README.MD',
    });
    assert.equal(result.mimeType, 'text/markdown');
    assert.equal(result.title, 'Real Title');
    assert.equal(result.text, markdown);
  });

  it('recognises JSON by parsing it, whatever it was declared as, and pretty-prints it', async () => {
    const result = await extractText({
      data: utf8('{"name":"gks","tags":["a","b"]}'),
      mimeType: 'text/plain',
      filename: 'data.txt',
    });
    assert.equal(result.mimeType, 'application/json');
    assert.equal(result.text, JSON.stringify({ name: 'gks', tags: ['a', 'b'] }, null, 2));
    assert.equal(result.title, null);
  });

  it('reads HTML by its prefix even when declared as something else', async () => {
    const html =
      '  <!DOCTYPE html><html><head><title>Page</title><script>x()</script></head><body><p>Hello &amp; welcome.</p></body></html>';
    const result = await extractText({ data: utf8(html), mimeType: 'text/plain', filename: 'page.txt' });
    assert.deepEqual(result, { title: 'Page', text: 'Hello & welcome.', mimeType: 'text/html' });
  });

  it('reads an HTML fragment when the name or the declared type says HTML', async () => {
    const byName = await extractText({
      data: utf8('<h1>Frag</h1><p>ment</p>'),
      mimeType: 'application/octet-stream',
      filename: 'x.htm',
    });
    assert.deepEqual(byName, { title: 'Frag', text: 'Frag\n\nment', mimeType: 'text/html' });
    const byType = await extractText({ data: utf8('<p>ment</p>'), mimeType: 'text/html; charset=utf-8' });
    assert.equal(byType.text, 'ment');
  });

  it('reads a PDF by its magic bytes, whatever its name', async () => {
    const pdf = minimalPdf({ title: 'Spec', pages: [['Hello from a PDF.']] });
    const result = await extractText({ data: pdf, mimeType: 'application/octet-stream', filename: 'upload.bin' });
    assert.deepEqual(result, { title: 'Spec', text: 'Hello from a PDF.', mimeType: 'application/pdf' });
  });

  it('refuses binary content as an unsupported file type on /body/file', async () => {
    const png = Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    ]);
    await assert.rejects(extractText({ data: png, mimeType: 'text/plain', filename: 'image.txt' }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.code, 'invalid_request');
      assert.equal(e.message, 'unsupported file type');
      assert.equal(e.details.fields?.[0]?.field, '/body/file');
      return true;
    });
  });

  it('names another field in errors when told where the bytes came from', async () => {
    await assert.rejects(
      extractText({ data: Buffer.from([1, 0, 2]), mimeType: 'application/octet-stream', field: '/body/url' }),
      (e: unknown) => {
        assert.ok(e instanceof ApiError);
        assert.equal(e.details.fields?.[0]?.field, '/body/url');
        return true;
      },
    );
  });

  it('reads UTF-16 text with a byte order mark instead of calling it binary', async () => {
    const data = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo', 'utf16le')]);
    const result = await extractText({ data, mimeType: 'text/plain' });
    assert.equal(result.text, 'héllo');
  });
});

describe('sniffMimeType', () => {
  it('trusts the bytes over the name, the name over the declared type, and falls back to plain text', () => {
    assert.equal(sniffMimeType(utf8('%PDF-1.7\n...'), 'text/plain', 'a.txt'), 'application/pdf');
    assert.equal(sniffMimeType(utf8('<html><body>x</body></html>'), 'application/json', 'a.json'), 'text/html');
    assert.equal(sniffMimeType(utf8('[1, 2]'), 'text/markdown', 'a.md'), 'application/json');
    assert.equal(sniffMimeType(utf8('# Hi'), 'text/plain', 'a.markdown'), 'text/markdown');
    assert.equal(sniffMimeType(utf8('# Hi'), 'text/markdown'), 'text/markdown');
    assert.equal(sniffMimeType(utf8('42'), 'application/octet-stream'), 'text/plain');
    assert.equal(sniffMimeType(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00]), 'application/zip', 'a.docx'), null);
  });
});

describe('markdownTitle', () => {
  it('is null when there is no level-one heading', () => {
    assert.equal(markdownTitle('## Only a subheading\n\ntext'), null);
    assert.equal(markdownTitle('#hashtag is not a heading'), null);
  });
});
