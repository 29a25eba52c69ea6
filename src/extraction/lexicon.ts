// Closed-class English evidence the built-in extractor types names and reads relations with.
// These are not gazetteers of names: they are the words around and inside names that say what a
// name is (suffixes, heads, roles, titles) and the verbs that state a relation, with their voice.
// Every list is small, general English, and covered by the labelled set in test/extraction/eval.

export type Category = 'Person' | 'Organization' | 'Place' | 'Product' | 'Event' | 'Concept';
export const CATEGORIES: Category[] = ['Person', 'Organization', 'Place', 'Product', 'Event', 'Concept'];

/** Last word of an organization name ("Lumenfold Inc.", "Bell Labs", "University of Paris"). */
export const ORG_HEADS = new Set(['inc', 'ltd', 'llc', 'llp', 'corp', 'corporation', 'co', 'company', 'gmbh', 'ag', 'plc', 'sa', 'bv', 'labs', 'lab', 'laboratory', 'laboratories',
  'systems', 'technologies', 'technology', 'pharmaceuticals', 'motors', 'analytics', 'group', 'holdings', 'institute', 'institution', 'university', 'college', 'school',
  'bank', 'foundation', 'agency', 'navy', 'army', 'ministry', 'department', 'office', 'council', 'association', 'society', 'press', 'studios', 'studio', 'partners',
  'sons', 'daughters', 'brothers', 'games', 'aerospace', 'robotics', 'works', 'energy', 'airlines', 'airways', 'electronics', 'instruments', 'dynamics', 'therapeutics', 'insurance', 'foods', 'records', 'pictures', 'entertainment', 'publishing', 'communications', 'logistics', 'industries', 'enterprises', 'solutions', 'software', 'networks', 'media', 'capital', 'ventures', 'consulting', 'academy', 'club', 'market', 'committee', 'union']);
/** Words that start an organization name ("University of Paris", "Bank of England"). */
export const ORG_FIRST = new Set(['university', 'institute', 'bank', 'college', 'ministry', 'department', 'museum']);
/** Abbreviated suffixes whose full stop belongs to the name ("Inc.", "Ltd.", "Bros."). */
export const ABBREVIATED_SUFFIXES = new Set(['inc', 'ltd', 'corp', 'co', 'bros', 'jr', 'sr', 'plc']);

export const EVENT_HEADS = new Set(['conference', 'summit', 'expo', 'exposition', 'fair', 'festival', 'hackathon', 'marathon', 'olympics', 'games', 'cup', 'championship',
  'championships', 'forum', 'symposium', 'congress', 'convention', 'meetup', 'gala', 'awards', 'week', 'world cup', 'workshop', 'election', 'war', 'battle', 'launch', 'tournament', 'race', 'show']);

/** "in northern Ebrin": words that may stand between "in" and a place. */
export const PLACE_MODIFIERS = new Set(['northern', 'southern', 'eastern', 'western', 'central', 'rural', 'coastal', 'downtown', 'upstate', 'greater', 'north', 'south', 'east', 'west']);
/** "Ravi's colleague": a possessive name before one of these is a person. */
export const PERSON_RELATIONS = new Set(['colleague', 'colleagues', 'wife', 'husband', 'partner', 'friend', 'son', 'daughter', 'mother', 'father', 'brother', 'sister', 'boss', 'assistant', 'student', 'students', 'mentor', 'family', 'nephew', 'niece', 'uncle', 'aunt', 'cousin', 'widow', 'parents', 'children']);
/** "her film Saltmarsh": works a person's possessive says they made. */
export const CREATIVE_WORKS = new Set(['film', 'novel', 'book', 'album', 'song', 'painting', 'play', 'poem', 'game', 'app', 'opera', 'symphony', 'documentary', 'memoir']);
export const PLACE_HEADS = new Set(['city', 'county', 'valley', 'river', 'bay', 'island', 'islands', 'lake', 'mountain', 'mountains', 'state', 'province', 'region', 'district', 'street', 'avenue', 'square', 'park', 'harbour', 'harbor', 'coast', 'peninsula']);
/** "Tessaly, a port city in Vellmark": a noun after the name saying it is a place. */
export const PLACE_NOUNS = new Set(['city', 'town', 'village', 'capital', 'region', 'country', 'state', 'province', 'county', 'island', 'port', 'district', 'suburb']);
export const ORG_NOUNS = new Set(['company', 'firm', 'startup', 'business', 'corporation', 'manufacturer', 'maker', 'agency', 'institution', 'organization', 'organisation', 'band', 'team', 'lab', 'university', 'charity', 'publisher', 'studio', 'bank', 'retailer', 'employer']);
export const PRODUCT_NOUNS = new Set(['product', 'app', 'application', 'platform', 'framework', 'language', 'software', 'system', 'device', 'machine', 'tool', 'engine', 'computer',
  'compiler', 'drone', 'keyboard', 'reader', 'loom', 'phone', 'car', 'ev', 'camera', 'game', 'novel', 'novels', 'book', 'film', 'movie', 'album', 'song', 'drug', 'vaccine', 'robot', 'os', 'browser', 'database', 'library', 'project', 'series', 'console', 'model', 'chip', 'processor', 'tools', 'web']);
export const EVENT_NOUNS = new Set(['conference', 'summit', 'festival', 'event', 'fair', 'expo', 'meeting', 'hackathon', 'marathon', 'launch', 'race', 'tournament', 'ceremony']);
export const CONCEPT_NOUNS = new Set(['concept', 'idea', 'theory', 'method', 'technique', 'field', 'topic', 'discipline', 'principle', 'approach', 'paradigm', 'branch', 'subfield', 'area']);
/** Job titles and roles: "Tim Cook, the chief executive of Apple", "a chemist at Verity". */
export const ROLE_NOUNS = new Set(['ceo', 'cto', 'cfo', 'coo', 'executive', 'founder', 'cofounder', 'co-founder', 'engineer', 'designer', 'chemist', 'professor', 'researcher', 'scientist', 'director',
  'manager', 'employee', 'developer', 'mathematician', 'president', 'chairman', 'chair', 'head', 'lead', 'analyst', 'officer', 'physicist', 'programmer', 'architect', 'editor',
  'reporter', 'lecturer', 'fellow', 'intern', 'partner', 'consultant', 'chief', 'vice', 'member', 'staff', 'worker', 'teacher', 'doctor', 'nurse', 'lawyer', 'economist', 'biologist', 'artist', 'writer', 'journalist', 'secretary', 'founder']);
/** Titles before a person's name; never part of it. */
export const PERSON_TITLES = new Set(['dr', 'mr', 'mrs', 'ms', 'prof', 'professor', 'sir', 'dame', 'lord', 'lady', 'president', 'director', 'ceo', 'senator', 'judge', 'captain', 'general', 'chef', 'king', 'queen', 'saint']);
/** Verbs whose subject is a person when it is a name ("Hedy Lamarr co-invented"). */
export const PERSON_VERBS = new Set(['said', 'says', 'told', 'wrote', 'writes', 'born', 'died', 'married', 'studied', 'spoke', 'speaks', 'attended', 'worked', 'works', 'joined', 'designed', 'invented',
  'co-invented', 'created', 'built', 'developed', 'met', 'won', 'competed', 'presented', 'leads', 'led', 'participated', 'argued', 'believes', 'lives', 'lived', 'taught', 'has', 'did', 'was', 'is']);

export const NEGATORS = new Set(['not', 'never', "n't", 'no', 'nor', 'neither', 'nobody', 'none', 'cannot']);
/** Pronouns that stand for an earlier person ("she designed"), organization ("it is based") or group. */
export const PERSON_PRONOUNS = new Set(['he', 'she']);
export const ORG_PRONOUNS = new Set(['it']);
export const GROUP_PRONOUNS = new Set(['they']);

/**
 * How the general shape's relations are said in English, beyond the shape's own patterns.
 * `reverse`: the grammatical subject is the relation's target ("Dovecote hired Ravi": Ravi
 * WORKS_FOR Dovecote). A verb followed by "by" is passive and swaps the sides again.
 */
export interface TriggerDef { phrase: string; reverse?: boolean; weight?: number }
export const TRIGGERS: Record<string, TriggerDef[]> = {
  WORKS_FOR: [{ phrase: 'work for' }, { phrase: 'work at' }, { phrase: 'join' }, { phrase: 'lead' }, { phrase: 'head' }, { phrase: 'leave for' }, { phrase: 'move to', weight: 0.8 },
    { phrase: 'serve at' }, { phrase: 'employ', reverse: true }, { phrase: 'hire', reverse: true }, { phrase: 'recruit', reverse: true }, { phrase: 'appoint', reverse: true }],
  LOCATED_IN: [{ phrase: 'based in' }, { phrase: 'located in' }, { phrase: 'headquartered in' }, { phrase: 'headquarters are in' }, { phrase: 'headquarters is in' },
    { phrase: 'is in', weight: 0.9 }, { phrase: 'are in', weight: 0.9 }, { phrase: 'lies in', weight: 0.9 }, { phrase: 'sits in', weight: 0.9 }],
  CREATED: [{ phrase: 'create' }, { phrase: 'build' }, { phrase: 'design' }, { phrase: 'invent' }, { phrase: 'co-invent' }, { phrase: 'develop' }, { phrase: 'write' },
    { phrase: 'make', weight: 0.8 }, { phrase: 'program' }, { phrase: 'compose' }, { phrase: 'direct', weight: 0.8 }, { phrase: 'author' }, { phrase: 'co-create' }, { phrase: 'engineer' }],
  PARTICIPATED_IN: [{ phrase: 'attend' }, { phrase: 'participate in' }, { phrase: 'take part in' }, { phrase: 'compete in' }, { phrase: 'speak at' }, { phrase: 'present at' },
    { phrase: 'perform at' }, { phrase: 'win' }, { phrase: 'play at' }, { phrase: 'run in' }, { phrase: 'organize', weight: 0.8 }],
  PART_OF: [{ phrase: 'part of' }, { phrase: 'belong to' }, { phrase: 'a branch of' }, { phrase: 'a subfield of' }, { phrase: 'a subset of' }, { phrase: 'a kind of' }, { phrase: 'a form of' }],
};
