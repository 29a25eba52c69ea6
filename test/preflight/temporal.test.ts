import assert from 'node:assert/strict';
import { newTenant, type Tenant } from '../support/api.js';
import { fact, memory, verdict } from '../governance/support.js';

async function staged(t: Tenant, body: Record<string, unknown>): Promise<string> {
  const reply = await t.post('/v1/memories', { ...body, apply: false });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body.delta_id as string;
}

describe('preflight in time (docs/facts.md)', function () {
  this.timeout(600_000);

  it('a change of employer with overlapping validity is ReviewRequired with a close correction that, applied, makes it SafeToAct', async () => {
    const t = await newTenant(0);
    const old = await memory(t, fact('Alice', 'works for', 'Acme', { valid_from: '2019-01-01T00:00:00Z' }));
    const deltaId = await staged(t, fact('Alice', 'works for', 'Globex', { valid_from: '2024-03-01T00:00:00Z' }));
    const before = await verdict(t, deltaId);
    assert.equal(before.disposition, 'ReviewRequired', before.text);
    const finding = before.findings.find((f) => f.evidence.rule === 'conflicting_object')!;
    assert.ok(finding, before.text);
    assert.equal(finding.severity, 'warning');
    assert.equal(finding.evidence.correction_method, 'POST');
    assert.equal(finding.evidence.correction_path, `/v1/memories/${old.id}/close`);
    assert.equal(finding.evidence.correction_valid_to, '2024-03-01T00:00:00.000Z');
    // The reviewer stages the proposed correction in one call, applies it, and audits the change again.
    const close = await t.post(String(finding.evidence.correction_path), {
      valid_to: finding.evidence.correction_valid_to,
      apply: false,
    });
    assert.equal(close.status, 200, JSON.stringify(close.body));
    assert.equal(close.body.status, 'staged');
    assert.equal((await t.post(`/v1/deltas/${close.body.delta_id}/apply`, {})).status, 200);
    const after = await verdict(t, deltaId);
    assert.equal(after.disposition, 'SafeToAct', after.text);
  });

  it('facts of a one-at-a-time type whose validity does not overlap do not contradict', async () => {
    const t = await newTenant(0);
    await memory(
      t,
      fact('Bea', 'lives in', 'Oslo', { valid_from: '2010-01-01T00:00:00Z', valid_to: '2015-01-01T00:00:00Z' }),
    );
    const deltaId = await staged(t, fact('Bea', 'lives in', 'Bergen', { valid_from: '2015-01-01T00:00:00Z' }));
    const v = await verdict(t, deltaId);
    assert.equal(v.disposition, 'SafeToAct', v.text);
    // Undated, the same pair overlaps (open intervals): a warning.
    const t2 = await newTenant(0);
    await memory(t2, fact('Bea', 'lives in', 'Oslo'));
    const undated = await verdict(t2, await staged(t2, fact('Bea', 'lives in', 'Bergen')));
    assert.equal(undated.disposition, 'ReviewRequired', undated.text);
  });

  it('a second language is SafeToAct (speaks is declared many)', async () => {
    const t = await newTenant(0);
    await memory(t, fact('Carl', 'speaks', 'French'));
    const v = await verdict(t, await staged(t, fact('Carl', 'speaks', 'German')));
    assert.equal(v.disposition, 'SafeToAct', v.text);
    assert.deepEqual(
      v.findings.filter((f) => f.check === 'contradictions'),
      [],
    );
  });

  it('a second line manager is a warning whatever the case of its predicate: a person reports to one manager at a time', async () => {
    const t = await newTenant(0);
    await memory(t, {
      ...fact('Omar Haddad', 'reports_to', 'Lena Fischer'),
      content: 'Omar Haddad reports to Lena Fischer.',
    });
    const second = {
      ...fact('Omar Haddad', 'Reports_To', 'Tom Becker'),
      content: 'Omar Haddad reports to Tom Becker.',
    };
    const v = await verdict(t, await staged(t, second));
    assert.equal(v.disposition, 'ReviewRequired', v.text);
    assert.deepEqual(
      v.findings.filter((f) => f.check === 'contradictions').map((f) => [f.severity, f.evidence.rule]),
      [['warning', 'conflicting_object']],
      v.text,
    );
    // Said in words, the relation is the same one (REPORTS_TO), and a later manager closes the earlier one.
    const t2 = await newTenant(0);
    await memory(t2, fact('Omar Haddad', 'reports to', 'Lena Fischer', { valid_to: '2024-01-01T00:00:00Z' }));
    const next = fact('Omar Haddad', 'reports to', 'Tom Becker', { valid_from: '2024-01-01T00:00:00Z' });
    assert.equal((await verdict(t2, await staged(t2, next))).disposition, 'SafeToAct');
  });

  it('a predicate no shape declares never warns: info naming it', async () => {
    const t = await newTenant(0);
    await memory(t, fact('Dana', 'enjoys', 'chess'));
    const v = await verdict(t, await staged(t, fact('Dana', 'enjoys', 'go')));
    assert.equal(v.disposition, 'SafeToAct', v.text);
    const info = v.findings.filter((f) => f.check === 'contradictions');
    assert.deepEqual(
      info.map((f) => [f.severity, f.evidence.rule]),
      [['info', 'undeclared_predicate']],
    );
    assert.match(info[0]!.message, /No shape declares enjoys/);
  });
});
