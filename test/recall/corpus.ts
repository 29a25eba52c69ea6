// A labelled recall set written by the team (docs/recall.md, "Evaluation"): memories of one fictional
// company, Halden Marine Systems, and questions asked in the asker's own words. Most questions share
// no content word with their answer; some name an identifier that must come first. Used by
// `npm run eval:recall` and by the recall tests; never tuned against (the threshold and the ranking
// rule are set from the model's behaviour, docs/recall.md).

export interface LabelledMemory {
  key: string;
  kind: 'preference' | 'decision' | 'fact' | 'lesson' | 'observation' | 'signal';
  content: string;
}

export interface LabelledQuestion {
  question: string;
  /** The key of the memory that answers it. */
  answer: string;
  /** identifier: the question names a code, key, part number or version found verbatim in the answer. */
  family: 'paraphrase' | 'identifier';
}

export const MEMORIES: LabelledMemory[] = [
  // People and organisation
  {
    key: 'payroll',
    kind: 'fact',
    content: 'Salaries are paid by Brightwater Payroll on the last business day of each month.',
  },
  { key: 'ceo', kind: 'fact', content: 'Ingrid Solberg has led Halden Marine Systems as chief executive since 2019.' },
  { key: 'cfo', kind: 'fact', content: 'Tomas Reinholt runs finance and signs off every purchase above 20,000 euros.' },
  { key: 'hr-lead', kind: 'fact', content: 'Questions about parental leave go to Mette Aas in people operations.' },
  {
    key: 'onboarding',
    kind: 'decision',
    content: 'New starters get a laptop, a badge and a buddy on their first morning.',
  },
  { key: 'remote', kind: 'decision', content: 'Staff may work from home up to three days a week after probation.' },
  {
    key: 'holidays',
    kind: 'fact',
    content: 'Everyone receives twenty-seven days of paid annual leave plus public holidays.',
  },
  { key: 'pension', kind: 'fact', content: 'The company adds seven percent of salary to the retirement savings plan.' },
  {
    key: 'bonus',
    kind: 'decision',
    content: 'Year-end bonuses are tied to fleet uptime rather than individual sales.',
  },
  {
    key: 'canteen',
    kind: 'observation',
    content: 'The cafeteria on the second floor serves lunch from eleven until one.',
  },
  // Vendors and contracts
  { key: 'cloud', kind: 'decision', content: 'Our servers run in a Frankfurt data centre rented from Nordhost.' },
  {
    key: 'insurer',
    kind: 'fact',
    content: 'Hull and cargo cover for the test vessels is underwritten by Skagen Mutual.',
  },
  { key: 'lawyers', kind: 'fact', content: 'Contract disputes are handled by the law firm Berg & Lunde in Oslo.' },
  { key: 'cleaning', kind: 'fact', content: 'Office cleaning is done every evening by Sparkle Facility Services.' },
  { key: 'steel', kind: 'fact', content: 'Propeller shafts are machined by Ørsted Precision in Stavanger.' },
  { key: 'batteries', kind: 'decision', content: 'Lithium cells for the drones are bought only from Polar Cell AS.' },
  {
    key: 'travel-agency',
    kind: 'fact',
    content: 'Flights and hotels for business trips are booked through Fjord Travel.',
  },
  { key: 'accountant', kind: 'fact', content: 'The annual accounts are audited by Kessler Revisjon every March.' },
  {
    key: 'courier',
    kind: 'preference',
    content: 'Spare parts ship to customers with NorthExpress overnight delivery.',
  },
  {
    key: 'coffee',
    kind: 'observation',
    content: 'The espresso machine on floor three was leased from Bryggeri Kaffe.',
  },
  // Product and engineering
  {
    key: 'sonar',
    kind: 'fact',
    content: 'The Kestrel survey drone maps the seabed with a multibeam echo sounder down to 600 metres.',
  },
  { key: 'battery-life', kind: 'fact', content: 'A fully charged Kestrel stays underwater for about eleven hours.' },
  { key: 'max-speed', kind: 'fact', content: 'Kestrel cruises at four knots and peaks at seven.' },
  { key: 'language', kind: 'decision', content: 'Firmware is written in Rust; the ground station UI is TypeScript.' },
  {
    key: 'release-cadence',
    kind: 'decision',
    content: 'Firmware ships every six weeks, never in the fortnight before a sea trial.',
  },
  {
    key: 'code-review',
    kind: 'preference',
    content: 'Every firmware change needs approval from two engineers before merging.',
  },
  {
    key: 'simulator',
    kind: 'lesson',
    content: 'Testing navigation in the harbour simulator first saved three failed sea trials last year.',
  },
  {
    key: 'gps-denied',
    kind: 'fact',
    content: 'Under water the drone estimates its position with a Doppler velocity log and an inertial unit.',
  },
  {
    key: 'comms',
    kind: 'fact',
    content: 'Surface communication uses an Iridium satellite link; below the surface an acoustic modem.',
  },
  {
    key: 'paint',
    kind: 'lesson',
    content: 'Antifouling coating must cure for 48 hours or barnacles settle within a month.',
  },
  {
    key: 'corrosion',
    kind: 'observation',
    content: 'Aluminium brackets near the thruster showed pitting after 200 hours in salt water.',
  },
  {
    key: 'weight',
    kind: 'fact',
    content: 'Kestrel weighs 58 kilograms out of the water and is neutrally buoyant in sea water.',
  },
  {
    key: 'depth-record',
    kind: 'observation',
    content: 'In the Hardanger fjord trial the drone reached 812 metres without leaks.',
  },
  {
    key: 'charging',
    kind: 'fact',
    content: 'The docking station recharges a drone in ninety minutes through inductive pads.',
  },
  // Customers and sales
  { key: 'biggest-customer', kind: 'fact', content: 'Equinor accounts for forty percent of our yearly revenue.' },
  { key: 'pricing', kind: 'decision', content: 'Drones are leased at 9,500 euros a month including maintenance.' },
  {
    key: 'churn',
    kind: 'signal',
    content: 'Two fish-farm operators cancelled their leases after the price rise in May.',
  },
  {
    key: 'expansion',
    kind: 'decision',
    content: 'We will open a sales office in Aberdeen to serve North Sea operators.',
  },
  {
    key: 'trade-show',
    kind: 'preference',
    content: 'The team prefers Oceanology International over smaller regional fairs.',
  },
  { key: 'sales-lead', kind: 'fact', content: 'Lars Vik owns every deal with offshore wind developers.' },
  // Operations and facilities
  {
    key: 'office-move',
    kind: 'decision',
    content: 'Headquarters moves from Bergen harbour to the Marineholmen science park in August.',
  },
  {
    key: 'parking',
    kind: 'observation',
    content: 'Only twelve car spaces come with the new building, so most staff will cycle.',
  },
  { key: 'fire-drill', kind: 'fact', content: 'Evacuation exercises happen on the first Tuesday of each quarter.' },
  {
    key: 'wifi',
    kind: 'fact',
    content: 'Guests connect to the HaldenGuest wireless network; the password changes weekly.',
  },
  { key: 'printer', kind: 'observation', content: 'The large-format plotter jams when fed glossy paper.' },
  {
    key: 'security-badge',
    kind: 'fact',
    content: 'Lost access cards are replaced by reception within one working day.',
  },
  {
    key: 'boat',
    kind: 'fact',
    content: 'The support vessel MS Torunn is moored at pier 4 and needs a licensed skipper.',
  },
  {
    key: 'warehouse',
    kind: 'fact',
    content: 'Spare thrusters and hull sections are stored in the Laksevåg warehouse.',
  },
  // Policies and lessons
  {
    key: 'expenses',
    kind: 'decision',
    content: 'Receipts must be filed in the expense tool within thirty days or they are not reimbursed.',
  },
  {
    key: 'security-training',
    kind: 'decision',
    content: 'Everyone completes phishing awareness training every autumn.',
  },
  { key: 'passwords', kind: 'decision', content: 'Work accounts require a hardware key in addition to a password.' },
  {
    key: 'incident-comms',
    kind: 'lesson',
    content: 'Telling customers about an outage within an hour kept every contract during the March failure.',
  },
  { key: 'meetings', kind: 'preference', content: 'The leadership team avoids meetings on Friday afternoons.' },
  {
    key: 'language-policy',
    kind: 'decision',
    content: 'English is the working language in all documents and tickets.',
  },
  { key: 'dogs', kind: 'preference', content: 'Pets are welcome in the office except in the clean room.' },
  {
    key: 'sustainability',
    kind: 'decision',
    content: 'By 2027 the support vessel will run on a hybrid electric drivetrain.',
  },
  {
    key: 'hiring-freeze',
    kind: 'signal',
    content: 'No new permanent positions will be opened until the Series B closes.',
  },
  { key: 'funding', kind: 'fact', content: 'The Series A of 12 million euros was led by Nordic Blue Ventures.' },
  { key: 'board', kind: 'fact', content: 'The board meets every second month, usually in Oslo.' },
  { key: 'patent', kind: 'fact', content: 'A patent on the self-cleaning sensor window was granted in 2024.' },
  // Identifiers
  {
    key: 'err-4012',
    kind: 'lesson',
    content: 'ERR-4012 on the ground station means the acoustic modem lost its handshake; power-cycle the transducer.',
  },
  {
    key: 'err-4013',
    kind: 'observation',
    content: 'ERR-4013 appears when the battery management board overheats during charging.',
  },
  {
    key: 'ticket-hms-2231',
    kind: 'observation',
    content: 'HMS-2231: the depth sensor drifts by half a metre after long dives; a recalibration fixes it.',
  },
  {
    key: 'ticket-hms-2310',
    kind: 'decision',
    content: 'HMS-2310 was closed as won’t fix: the old charging dock is no longer supported.',
  },
  {
    key: 'part-kt-7741',
    kind: 'fact',
    content: 'Thruster seal part KT-7741 must be replaced every 500 operating hours.',
  },
  {
    key: 'part-kt-7742',
    kind: 'fact',
    content: 'Part KT-7742 is the thruster propeller guard, sold in packs of four.',
  },
  {
    key: 'firmware-3-2-1',
    kind: 'signal',
    content: 'Firmware v3.2.1 fixes the compass drift but slows the boot by four seconds.',
  },
  {
    key: 'firmware-3-3-0',
    kind: 'decision',
    content: 'Firmware v3.3.0 will add collision avoidance with the forward-looking sonar.',
  },
  {
    key: 'po-88123',
    kind: 'fact',
    content: 'Purchase order PO-88123 covers 200 lithium cells from Polar Cell, delivery in week 42.',
  },
  {
    key: 'config-flag',
    kind: 'lesson',
    content: 'Setting NAV_STRICT_MODE to false stops the drone from aborting missions on weak DVL lock.',
  },
  {
    key: 'invoice',
    kind: 'observation',
    content: 'Invoice INV-2024-0917 from Nordhost was charged twice and a refund is pending.',
  },
];

// Distractors: plausible memories on the same topics that answer none of the questions, so a ranking
// has to prefer the right one among many near it.
const PLACES = ['Bergen', 'Stavanger', 'Tromsø', 'Aberdeen', 'Trondheim', 'Ålesund', 'Kristiansand', 'Bodø'];
const TEAMS = ['firmware', 'hardware', 'sales', 'finance', 'operations', 'people', 'support', 'marine'];
const THINGS = ['weekly report', 'quarterly plan', 'team offsite', 'budget review', 'safety audit', 'customer demo'];
for (let i = 0; i < 240; i++) {
  const place = PLACES[i % PLACES.length]!;
  const team = TEAMS[(i * 3) % TEAMS.length]!;
  const thing = THINGS[(i * 5) % THINGS.length]!;
  const templates = [
    `The ${team} team held its ${thing} in ${place} in week ${(i % 50) + 1}.`,
    `Notes from the ${thing}: the ${team} team asked for more time on item ${i + 100}.`,
    `A visitor from ${place} toured the ${team} lab during the ${thing}.`,
    `The ${team} team moved the ${thing} to a later date because of the weather in ${place}.`,
  ];
  MEMORIES.push({ key: `noise-${i}`, kind: 'observation', content: templates[i % templates.length]! });
}

export const QUESTIONS: LabelledQuestion[] = [
  { question: 'Which vendor handles wages?', answer: 'payroll', family: 'paraphrase' },
  { question: 'Who is the boss of the company?', answer: 'ceo', family: 'paraphrase' },
  { question: 'Who has to approve big spending?', answer: 'cfo', family: 'paraphrase' },
  { question: 'I am having a baby, who do I talk to about time off?', answer: 'hr-lead', family: 'paraphrase' },
  { question: 'What do newcomers receive on day one?', answer: 'onboarding', family: 'paraphrase' },
  { question: 'Can I telecommute?', answer: 'remote', family: 'paraphrase' },
  { question: 'How much vacation do employees get?', answer: 'holidays', family: 'paraphrase' },
  { question: 'What is the employer pension contribution?', answer: 'pension', family: 'paraphrase' },
  { question: 'When can I eat at midday?', answer: 'canteen', family: 'paraphrase' },
  { question: 'Where is our infrastructure hosted?', answer: 'cloud', family: 'paraphrase' },
  { question: 'Who insures the boats?', answer: 'insurer', family: 'paraphrase' },
  { question: 'Which attorneys do we use when a client sues us?', answer: 'lawyers', family: 'paraphrase' },
  { question: 'Who makes the drive shafts?', answer: 'steel', family: 'paraphrase' },
  { question: 'Which supplier provides battery cells?', answer: 'batteries', family: 'paraphrase' },
  { question: 'How do I arrange a plane ticket for a work journey?', answer: 'travel-agency', family: 'paraphrase' },
  { question: 'Who checks our financial statements?', answer: 'accountant', family: 'paraphrase' },
  { question: 'How deep can the robot chart the ocean floor?', answer: 'sonar', family: 'paraphrase' },
  { question: 'How long does one charge last on a dive?', answer: 'battery-life', family: 'paraphrase' },
  { question: 'How fast does the vehicle go?', answer: 'max-speed', family: 'paraphrase' },
  { question: 'What programming languages do we use?', answer: 'language', family: 'paraphrase' },
  { question: 'How often do we publish new software versions?', answer: 'release-cadence', family: 'paraphrase' },
  { question: 'How does the robot know where it is without satellites?', answer: 'gps-denied', family: 'paraphrase' },
  { question: 'How does the submarine talk to us?', answer: 'comms', family: 'paraphrase' },
  { question: 'Why do shellfish grow on the hull?', answer: 'paint', family: 'paraphrase' },
  { question: 'How heavy is the drone?', answer: 'weight', family: 'paraphrase' },
  { question: 'Who is our largest client?', answer: 'biggest-customer', family: 'paraphrase' },
  { question: 'What does it cost to rent one unit?', answer: 'pricing', family: 'paraphrase' },
  { question: 'Are aquaculture clients leaving us?', answer: 'churn', family: 'paraphrase' },
  { question: 'Are we opening a branch in Scotland?', answer: 'expansion', family: 'paraphrase' },
  { question: 'Where is the head office relocating?', answer: 'office-move', family: 'paraphrase' },
  {
    question: 'How often do we practise leaving the building in an emergency?',
    answer: 'fire-drill',
    family: 'paraphrase',
  },
  { question: 'How can a visitor get online?', answer: 'wifi', family: 'paraphrase' },
  { question: 'I misplaced my entry badge, what now?', answer: 'security-badge', family: 'paraphrase' },
  { question: 'What is the deadline for claiming costs back?', answer: 'expenses', family: 'paraphrase' },
  { question: 'Do we need two-factor authentication?', answer: 'passwords', family: 'paraphrase' },
  { question: 'Can I bring my dog to work?', answer: 'dogs', family: 'paraphrase' },
  { question: 'Who invested in our first funding round?', answer: 'funding', family: 'paraphrase' },
  { question: 'Are we hiring right now?', answer: 'hiring-freeze', family: 'paraphrase' },
  { question: 'Do we hold any intellectual property on the sensor?', answer: 'patent', family: 'paraphrase' },
  { question: 'Where do we keep spare hardware?', answer: 'warehouse', family: 'paraphrase' },
  {
    question: 'What did we learn about informing clients during downtime?',
    answer: 'incident-comms',
    family: 'paraphrase',
  },
  { question: 'How quickly is a robot recharged at the dock?', answer: 'charging', family: 'paraphrase' },
  { question: 'What does ERR-4012 mean?', answer: 'err-4012', family: 'identifier' },
  { question: 'what causes err-4013', answer: 'err-4013', family: 'identifier' },
  { question: 'status of HMS-2231', answer: 'ticket-hms-2231', family: 'identifier' },
  { question: 'Why was HMS-2310 closed?', answer: 'ticket-hms-2310', family: 'identifier' },
  { question: 'How often is KT-7741 replaced?', answer: 'part-kt-7741', family: 'identifier' },
  { question: 'What is in firmware v3.2.1?', answer: 'firmware-3-2-1', family: 'identifier' },
  { question: 'What will v3.3.0 bring?', answer: 'firmware-3-3-0', family: 'identifier' },
  { question: 'PO-88123 delivery', answer: 'po-88123', family: 'identifier' },
  { question: 'What does NAV_STRICT_MODE do?', answer: 'config-flag', family: 'identifier' },
  { question: 'INV-2024-0917 refund', answer: 'invoice', family: 'identifier' },
];
