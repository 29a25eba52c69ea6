// API descriptions the bridge tests translate: a GitHub-like OpenAPI 3.1 document, a recursive
// discriminated oneOf, and a GraphQL SDL with @relationship.

export function githubLikeOpenApi(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Issues API', version: '1.0.0' },
    paths: {
      '/repos/{owner}/{repo}/issues': {
        get: {
          operationId: 'listIssues',
          responses: {
            '200': {
              description: 'issues',
              content: {
                'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Issue' } } },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Issue: {
          type: 'object',
          required: ['id', 'title', 'state'],
          properties: {
            id: { type: 'integer' },
            number: { type: 'integer' },
            title: { type: 'string' },
            state: { type: 'string', enum: ['open', 'closed'] },
            created_at: { type: 'string', format: 'date-time' },
            assignee: { anyOf: [{ $ref: '#/components/schemas/User' }, { type: 'null' }] },
            labels: { type: 'array', items: { $ref: '#/components/schemas/Label' } },
            tags: { type: 'array', items: { type: 'string' } },
            reactions: { type: 'object', properties: { total_count: { type: 'integer' }, heart: { type: 'integer' } } },
          },
        },
        User: {
          type: 'object',
          required: ['id', 'login'],
          properties: { id: { type: 'integer' }, login: { type: 'string' }, site_admin: { type: 'boolean' } },
        },
        Label: {
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'integer' }, name: { type: 'string' }, color: { type: 'string' } },
        },
      },
    },
  };
}

/** A node tree whose children are a discriminated oneOf of itself and a leaf: must terminate. */
export function recursiveOneOfSchema(): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Tree', version: '1' },
    paths: {
      '/nodes': {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Node: {
          oneOf: [{ $ref: '#/components/schemas/Branch' }, { $ref: '#/components/schemas/Leaf' }],
          discriminator: { propertyName: 'kind' },
        },
        Branch: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string' },
            kind: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
            parent: { $ref: '#/components/schemas/Branch' },
            loose: { $ref: '#/components/schemas/Loose' },
          },
        },
        Leaf: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string' }, kind: { type: 'string' }, value: { type: 'number' } },
        },
        Loose: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    },
  };
}

export const MOVIES_SDL = `
type Movie {
  id: ID!
  title: String!
  released: Int
  actors: [Person!]! @relationship(type: "ACTED_IN", direction: IN)
  director: Person @relationship(type: "DIRECTED", direction: IN)
  genres: [String!]
}

type Person {
  id: ID!
  name: String!
  born: Date
}

type Query {
  movies: [Movie!]!
}
`;
