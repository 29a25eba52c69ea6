import assert from 'node:assert/strict';
import { propose } from '../../src/bridges/translate/index.js';
import { ApiError } from '../../src/errors/catalogue.js';
import { githubLikeOpenApi, MOVIES_SDL, recursiveOneOfSchema } from './fixtures.js';

const FIELD = '/body/source/document';
const opts = { max_depth: 2 };

describe('bridge translation rules', () => {
  it('a GitHub-like OpenAPI 3.1 document gives Issue, User and Label with string external_id identities and typed properties', () => {
    const { proposal, unmapped } = propose({ format: 'openapi', document: githubLikeOpenApi(), field: FIELD }, opts);
    assert.deepEqual(
      proposal.entity_types.map((t) => t.label),
      ['Issue', 'User', 'Label'],
    );
    for (const t of proposal.entity_types) {
      assert.equal(t.identity_source, 'id');
      assert.deepEqual(
        t.properties.find((p) => p.name === 'external_id'),
        {
          name: 'external_id',
          type: 'string',
          path: 'id',
          source_pointer: `/components/schemas/${t.source_name}/properties/id`,
        },
      );
    }
    const issue = proposal.entity_types[0]!;
    const prop = (name: string) => issue.properties.find((p) => p.name === name);
    assert.deepEqual(prop('state'), {
      name: 'state',
      type: 'string',
      enum: ['open', 'closed'],
      path: 'state',
      source_pointer: '/components/schemas/Issue/properties/state',
    });
    assert.equal(prop('source_created_at')?.type, 'datetime', 'created_at is renamed and typed date-time');
    assert.equal(prop('reactions_total_count')?.path, 'reactions.total_count', 'inline objects are flattened');
    assert.deepEqual(issue.required, ['external_id', 'title', 'state']);
    assert.equal(issue.name_path, 'title');
    assert.deepEqual(
      proposal.relationship_types.map((r) => [r.type, r.from, r.to, r.cardinality, r.inferred]),
      [
        ['HAS_ASSIGNEE', 'Issue', 'User', 'many_to_one', false],
        ['HAS_LABELS', 'Issue', 'Label', 'one_to_many', false],
      ],
    );
    assert.deepEqual(unmapped, [
      {
        pointer: '/components/schemas/Issue/properties/tags',
        reason: 'array of scalars (a shape property holds one value)',
      },
    ]);
  });

  it('a self-referencing discriminated oneOf terminates with one type per branch; an undiscriminated oneOf is unmapped', () => {
    const { proposal, unmapped } = propose({ format: 'openapi', document: recursiveOneOfSchema(), field: FIELD }, opts);
    assert.deepEqual(
      proposal.entity_types.map((t) => t.label),
      ['Branch', 'Leaf'],
    );
    assert.deepEqual(
      proposal.relationship_types.map((r) => `${r.from}-${r.type}->${r.to} ${r.cardinality}`),
      [
        'Branch-HAS_CHILDREN->Branch one_to_many',
        'Branch-HAS_CHILDREN->Leaf one_to_many',
        'Branch-HAS_PARENT->Branch many_to_one',
      ],
    );
    assert.deepEqual(unmapped, [
      { pointer: '/components/schemas/Branch/properties/loose', reason: 'oneOf/anyOf without a discriminator' },
    ]);
  });

  it('mutual recursion through inline objects stops at max_depth and says so', () => {
    const doc = {
      $defs: {
        Folder: {
          type: 'object',
          properties: { id: { type: 'string' }, meta: { $ref: '#/$defs/Folder/properties/meta/properties/inner' } },
        },
      },
      type: 'object',
      title: 'Drive',
      properties: { id: { type: 'string' }, root: { $ref: '#/$defs/Folder' }, self: { $ref: '#' } },
    };
    (doc.$defs.Folder.properties.meta as Record<string, unknown>) = {
      type: 'object',
      properties: { inner: { type: 'object', properties: { again: { $ref: '#/$defs/Folder/properties/meta' } } } },
    };
    const { proposal, unmapped } = propose({ format: 'json_schema', document: doc, field: FIELD }, opts);
    assert.deepEqual(
      proposal.entity_types.map((t) => t.label),
      ['Drive', 'Folder'],
    );
    assert.ok(
      proposal.relationship_types.some((r) => r.from === 'Drive' && r.to === 'Drive' && r.type === 'HAS_SELF'),
      'a # reference names the root type',
    );
    assert.ok(
      unmapped.some((u) => /max_depth/.test(u.reason)),
      JSON.stringify(unmapped),
    );
  });

  it('engine-owned names are renamed and reserved labels prefixed; *_id fields are proposed as inferred relationships', () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          Document: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'integer' },
              type: { type: 'string' },
              project_id: { type: 'string' },
              owner_id: { type: 'integer' },
            },
          },
          Owner: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
        },
      },
    };
    const { proposal } = propose({ format: 'openapi', document: doc, field: FIELD }, opts);
    const doc0 = proposal.entity_types.find((t) => t.source_name === 'Document')!;
    assert.equal(doc0.label, 'ApiDocument');
    assert.deepEqual(
      doc0.properties.map((p) => p.name),
      ['external_id', 'kind', 'source_project_id', 'owner_id'],
    );
    assert.deepEqual(proposal.relationship_types, [
      {
        type: 'HAS_OWNER',
        from: 'ApiDocument',
        to: 'Owner',
        cardinality: 'many_to_one',
        field: 'owner_id',
        source_pointer: '/components/schemas/Document/properties/owner_id',
        inferred: true,
        target_identity_path: null,
        direction: 'out',
      },
    ]);
  });

  it('a remote $ref is refused naming its pointer', () => {
    const doc = githubLikeOpenApi();
    (doc.components as Record<string, Record<string, Record<string, unknown>>>).schemas!.User!.properties = {
      id: { $ref: 'https://example.com/id.json' },
    };
    assert.throws(
      () => propose({ format: 'openapi', document: doc, field: FIELD }, opts),
      (e: unknown) => {
        assert.ok(e instanceof ApiError);
        assert.equal(e.code, 'invalid_request');
        assert.deepEqual(e.details.fields, [
          {
            field: `${FIELD}/components/schemas/User/properties/id/$ref`,
            reason: 'remote reference https://example.com/id.json is not followed',
          },
        ]);
        return true;
      },
    );
  });

  it('a GraphQL SDL maps object types, honours @relationship type and direction, and lists scalar lists as unmapped', () => {
    const { proposal, unmapped } = propose({ format: 'graphql_sdl', document: MOVIES_SDL, field: FIELD }, opts);
    assert.deepEqual(
      proposal.entity_types.map((t) => `${t.label}:${t.properties.map((p) => `${p.name}/${p.type}`).join(',')}`),
      ['Movie:external_id/string,title/string,released/integer', 'Person:external_id/string,name/string,born/date'],
    );
    assert.deepEqual(
      proposal.relationship_types.map((r) => `${r.from}-${r.type}->${r.to} ${r.cardinality} ${r.direction}`),
      ['Person-ACTED_IN->Movie many_to_many in', 'Person-DIRECTED->Movie one_to_many in'],
    );
    assert.deepEqual(unmapped, [
      { pointer: '/types/Movie/fields/genres', reason: 'list of scalars (a shape property holds one value)' },
    ]);
  });

  it('the same document always gives the same proposal', () => {
    const a = JSON.stringify(propose({ format: 'openapi', document: githubLikeOpenApi(), field: FIELD }, opts));
    const b = JSON.stringify(propose({ format: 'openapi', document: githubLikeOpenApi(), field: FIELD }, opts));
    assert.equal(a, b);
  });

  it('an array whose items refer back to their parent is mapped as nothing, never recursed into (was a RangeError, a 500)', () => {
    const doc = {
      $defs: {
        Tree: { type: 'array', items: { $ref: '#/$defs/Tree' } },
        Ring: { type: 'array', items: { $ref: '#/$defs/Loop' } },
        Loop: { type: 'array', items: { $ref: '#/$defs/Ring' } },
      },
      type: 'object',
      title: 'Forest',
      properties: { id: { type: 'string' }, tree: { $ref: '#/$defs/Tree' }, ring: { $ref: '#/$defs/Ring' } },
    };
    const { proposal, unmapped } = propose({ format: 'json_schema', document: doc, field: FIELD }, opts);
    assert.deepEqual(
      proposal.entity_types.map((t) => t.label),
      ['Forest'],
    );
    assert.ok(
      unmapped.some((u) => /refer back/.test(u.reason)),
      JSON.stringify(unmapped),
    );
    const rootArray = { type: 'array', items: { $ref: '#' } };
    assert.doesNotThrow(() => propose({ format: 'json_schema', document: rootArray, field: FIELD }, opts));
  });
});
