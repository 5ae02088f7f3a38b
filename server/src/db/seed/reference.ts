/**
 * Reference data of the demo generator: real merchant category codes, US states by population, the
 * Federal Reserve's bank holidays, and the name parts businesses are made of.
 */

export interface Mcc {
  code: string;
  description: string;
  /** Share of merchants in this category. */
  weight: number;
  /** Typical monthly card volume in dollars and average ticket. */
  volume: number;
  ticket: number;
  kind: 'food' | 'retail' | 'service' | 'auto' | 'health' | 'travel' | 'online' | 'professional';
}

export const MCCS: readonly Mcc[] = [
  {
    code: '5812',
    description: 'Eating Places, Restaurants',
    weight: 14,
    volume: 52_000,
    ticket: 38,
    kind: 'food',
  },
  { code: '5814', description: 'Fast Food Restaurants', weight: 8, volume: 41_000, ticket: 14, kind: 'food' },
  {
    code: '5813',
    description: 'Drinking Places (Bars, Taverns, Nightclubs)',
    weight: 3,
    volume: 36_000,
    ticket: 31,
    kind: 'food',
  },
  {
    code: '5411',
    description: 'Grocery Stores, Supermarkets',
    weight: 4,
    volume: 88_000,
    ticket: 42,
    kind: 'retail',
  },
  {
    code: '5499',
    description: 'Miscellaneous Food Stores',
    weight: 3,
    volume: 24_000,
    ticket: 19,
    kind: 'retail',
  },
  { code: '5541', description: 'Service Stations', weight: 3, volume: 96_000, ticket: 47, kind: 'auto' },
  {
    code: '7538',
    description: 'Automotive Service Shops',
    weight: 4,
    volume: 44_000,
    ticket: 310,
    kind: 'auto',
  },
  {
    code: '5533',
    description: 'Automotive Parts and Accessories Stores',
    weight: 2,
    volume: 38_000,
    ticket: 86,
    kind: 'auto',
  },
  { code: '7542', description: 'Car Washes', weight: 1, volume: 18_000, ticket: 22, kind: 'auto' },
  {
    code: '5999',
    description: 'Miscellaneous and Specialty Retail Stores',
    weight: 6,
    volume: 27_000,
    ticket: 64,
    kind: 'retail',
  },
  { code: '5311', description: 'Department Stores', weight: 1, volume: 120_000, ticket: 58, kind: 'retail' },
  {
    code: '5651',
    description: 'Family Clothing Stores',
    weight: 3,
    volume: 31_000,
    ticket: 72,
    kind: 'retail',
  },
  { code: '5661', description: 'Shoe Stores', weight: 1, volume: 26_000, ticket: 89, kind: 'retail' },
  {
    code: '5944',
    description: 'Jewelry Stores, Watches, Clocks, and Silverware Stores',
    weight: 1,
    volume: 48_000,
    ticket: 420,
    kind: 'retail',
  },
  {
    code: '5945',
    description: 'Hobby, Toy, and Game Shops',
    weight: 1,
    volume: 19_000,
    ticket: 41,
    kind: 'retail',
  },
  { code: '5992', description: 'Florists', weight: 1, volume: 14_000, ticket: 68, kind: 'retail' },
  {
    code: '5200',
    description: 'Home Supply Warehouse Stores',
    weight: 1,
    volume: 74_000,
    ticket: 112,
    kind: 'retail',
  },
  { code: '5251', description: 'Hardware Stores', weight: 2, volume: 33_000, ticket: 46, kind: 'retail' },
  {
    code: '5712',
    description: 'Furniture, Home Furnishings, and Equipment Stores',
    weight: 1,
    volume: 57_000,
    ticket: 640,
    kind: 'retail',
  },
  { code: '5732', description: 'Electronics Stores', weight: 1, volume: 42_000, ticket: 180, kind: 'retail' },
  {
    code: '5912',
    description: 'Drug Stores and Pharmacies',
    weight: 2,
    volume: 63_000,
    ticket: 34,
    kind: 'health',
  },
  {
    code: '5921',
    description: 'Package Stores – Beer, Wine, and Liquor',
    weight: 2,
    volume: 39_000,
    ticket: 36,
    kind: 'retail',
  },
  {
    code: '5993',
    description: 'Cigar Stores and Stands',
    weight: 1,
    volume: 21_000,
    ticket: 27,
    kind: 'retail',
  },
  {
    code: '7230',
    description: 'Beauty and Barber Shops',
    weight: 6,
    volume: 16_000,
    ticket: 58,
    kind: 'service',
  },
  {
    code: '7298',
    description: 'Health and Beauty Spas',
    weight: 2,
    volume: 22_000,
    ticket: 115,
    kind: 'service',
  },
  {
    code: '7997',
    description: 'Membership Clubs (Sports, Recreation, Athletic)',
    weight: 2,
    volume: 29_000,
    ticket: 54,
    kind: 'service',
  },
  {
    code: '7211',
    description: 'Laundries – Family and Commercial',
    weight: 1,
    volume: 9_000,
    ticket: 24,
    kind: 'service',
  },
  { code: '7216', description: 'Dry Cleaners', weight: 1, volume: 11_000, ticket: 31, kind: 'service' },
  {
    code: '7299',
    description: 'Miscellaneous Personal Services',
    weight: 2,
    volume: 15_000,
    ticket: 77,
    kind: 'service',
  },
  {
    code: '7399',
    description: 'Business Services',
    weight: 3,
    volume: 34_000,
    ticket: 260,
    kind: 'professional',
  },
  {
    code: '8011',
    description: 'Doctors and Physicians',
    weight: 3,
    volume: 46_000,
    ticket: 165,
    kind: 'health',
  },
  {
    code: '8021',
    description: 'Dentists and Orthodontists',
    weight: 3,
    volume: 58_000,
    ticket: 290,
    kind: 'health',
  },
  {
    code: '8042',
    description: 'Optometrists and Ophthalmologists',
    weight: 1,
    volume: 37_000,
    ticket: 210,
    kind: 'health',
  },
  {
    code: '8099',
    description: 'Medical Services and Health Practitioners',
    weight: 2,
    volume: 39_000,
    ticket: 150,
    kind: 'health',
  },
  {
    code: '0742',
    description: 'Veterinary Services',
    weight: 2,
    volume: 52_000,
    ticket: 185,
    kind: 'health',
  },
  {
    code: '8111',
    description: 'Legal Services and Attorneys',
    weight: 2,
    volume: 41_000,
    ticket: 950,
    kind: 'professional',
  },
  {
    code: '8931',
    description: 'Accounting, Auditing, and Bookkeeping Services',
    weight: 1,
    volume: 23_000,
    ticket: 420,
    kind: 'professional',
  },
  {
    code: '1520',
    description: 'General Contractors – Residential and Commercial',
    weight: 2,
    volume: 66_000,
    ticket: 1_900,
    kind: 'professional',
  },
  {
    code: '1711',
    description: 'Heating, Plumbing, and Air Conditioning Contractors',
    weight: 2,
    volume: 48_000,
    ticket: 640,
    kind: 'professional',
  },
  {
    code: '7349',
    description: 'Cleaning, Maintenance, and Janitorial Services',
    weight: 1,
    volume: 17_000,
    ticket: 185,
    kind: 'service',
  },
  {
    code: '4121',
    description: 'Taxicabs and Limousines',
    weight: 1,
    volume: 12_000,
    ticket: 36,
    kind: 'travel',
  },
  {
    code: '7011',
    description: 'Lodging – Hotels, Motels, Resorts',
    weight: 2,
    volume: 98_000,
    ticket: 240,
    kind: 'travel',
  },
  {
    code: '4722',
    description: 'Travel Agencies and Tour Operators',
    weight: 1,
    volume: 61_000,
    ticket: 780,
    kind: 'travel',
  },
  {
    code: '5965',
    description: 'Direct Marketing – Combination Catalog and Retail',
    weight: 1,
    volume: 44_000,
    ticket: 62,
    kind: 'online',
  },
  {
    code: '5969',
    description: 'Direct Marketing – Other Direct Marketers',
    weight: 1,
    volume: 39_000,
    ticket: 55,
    kind: 'online',
  },
  {
    code: '5968',
    description: 'Direct Marketing – Continuity/Subscription',
    weight: 1,
    volume: 33_000,
    ticket: 29,
    kind: 'online',
  },
  { code: '5735', description: 'Record Stores', weight: 0.3, volume: 9_000, ticket: 24, kind: 'retail' },
  {
    code: '5941',
    description: 'Sporting Goods Stores',
    weight: 1,
    volume: 35_000,
    ticket: 74,
    kind: 'retail',
  },
  { code: '5942', description: 'Book Stores', weight: 0.5, volume: 12_000, ticket: 28, kind: 'retail' },
  {
    code: '5995',
    description: 'Pet Shops, Pet Foods, and Supplies Stores',
    weight: 1,
    volume: 24_000,
    ticket: 49,
    kind: 'retail',
  },
  {
    code: '8220',
    description: 'Colleges, Universities, Professional Schools',
    weight: 0.5,
    volume: 55_000,
    ticket: 540,
    kind: 'professional',
  },
  {
    code: '8398',
    description: 'Charitable and Social Service Organizations',
    weight: 0.5,
    volume: 14_000,
    ticket: 65,
    kind: 'professional',
  },
  {
    code: '5511',
    description: 'Car and Truck Dealers (New and Used)',
    weight: 1,
    volume: 140_000,
    ticket: 1_250,
    kind: 'auto',
  },
  {
    code: '5122',
    description: 'Drugs, Drug Proprietaries, and Druggist Sundries',
    weight: 0.5,
    volume: 71_000,
    ticket: 95,
    kind: 'health',
  },
];

/** Merchant categories a High Risk profile draws from. */
export const HIGH_RISK_MCCS = ['5968', '5969', '5993', '5122', '4722', '5813', '7997'];

/** States with their share of the US population (2020 census, percent) and a few cities with ZIP prefixes. */
export const STATES: ReadonlyArray<
  [code: string, population: number, cities: ReadonlyArray<[string, string]>]
> = [
  [
    'CA',
    11.9,
    [
      ['Los Angeles', '900'],
      ['San Diego', '921'],
      ['San Jose', '951'],
      ['Fresno', '937'],
      ['Sacramento', '958'],
    ],
  ],
  [
    'TX',
    8.8,
    [
      ['Houston', '770'],
      ['Dallas', '752'],
      ['San Antonio', '782'],
      ['Austin', '787'],
      ['Fort Worth', '761'],
    ],
  ],
  [
    'FL',
    6.5,
    [
      ['Miami', '331'],
      ['Orlando', '328'],
      ['Tampa', '336'],
      ['Jacksonville', '322'],
    ],
  ],
  [
    'NY',
    6.1,
    [
      ['New York', '100'],
      ['Buffalo', '142'],
      ['Rochester', '146'],
      ['Albany', '122'],
    ],
  ],
  [
    'PA',
    3.9,
    [
      ['Philadelphia', '191'],
      ['Pittsburgh', '152'],
      ['Allentown', '181'],
    ],
  ],
  [
    'IL',
    3.8,
    [
      ['Chicago', '606'],
      ['Aurora', '605'],
      ['Springfield', '627'],
    ],
  ],
  [
    'OH',
    3.5,
    [
      ['Columbus', '432'],
      ['Cleveland', '441'],
      ['Cincinnati', '452'],
    ],
  ],
  [
    'GA',
    3.3,
    [
      ['Atlanta', '303'],
      ['Savannah', '314'],
      ['Augusta', '309'],
    ],
  ],
  [
    'NC',
    3.2,
    [
      ['Charlotte', '282'],
      ['Raleigh', '276'],
      ['Greensboro', '274'],
    ],
  ],
  [
    'MI',
    3.0,
    [
      ['Detroit', '482'],
      ['Grand Rapids', '495'],
      ['Lansing', '489'],
    ],
  ],
  [
    'NJ',
    2.8,
    [
      ['Newark', '071'],
      ['Jersey City', '073'],
      ['Trenton', '086'],
    ],
  ],
  [
    'VA',
    2.6,
    [
      ['Virginia Beach', '234'],
      ['Richmond', '232'],
      ['Arlington', '222'],
    ],
  ],
  [
    'WA',
    2.3,
    [
      ['Seattle', '981'],
      ['Spokane', '992'],
      ['Tacoma', '984'],
    ],
  ],
  [
    'AZ',
    2.2,
    [
      ['Phoenix', '850'],
      ['Tucson', '857'],
      ['Mesa', '852'],
    ],
  ],
  [
    'MA',
    2.1,
    [
      ['Boston', '021'],
      ['Worcester', '016'],
      ['Springfield', '011'],
    ],
  ],
  [
    'TN',
    2.1,
    [
      ['Nashville', '372'],
      ['Memphis', '381'],
      ['Knoxville', '379'],
    ],
  ],
  [
    'IN',
    2.0,
    [
      ['Indianapolis', '462'],
      ['Fort Wayne', '468'],
    ],
  ],
  [
    'MD',
    1.9,
    [
      ['Baltimore', '212'],
      ['Frederick', '217'],
    ],
  ],
  [
    'MO',
    1.9,
    [
      ['Kansas City', '641'],
      ['St. Louis', '631'],
    ],
  ],
  [
    'WI',
    1.8,
    [
      ['Milwaukee', '532'],
      ['Madison', '537'],
    ],
  ],
  [
    'CO',
    1.7,
    [
      ['Denver', '802'],
      ['Colorado Springs', '809'],
      ['Boulder', '803'],
    ],
  ],
  [
    'MN',
    1.7,
    [
      ['Minneapolis', '554'],
      ['St. Paul', '551'],
    ],
  ],
  [
    'SC',
    1.6,
    [
      ['Charleston', '294'],
      ['Columbia', '292'],
    ],
  ],
  [
    'AL',
    1.5,
    [
      ['Birmingham', '352'],
      ['Montgomery', '361'],
    ],
  ],
  [
    'LA',
    1.4,
    [
      ['New Orleans', '701'],
      ['Baton Rouge', '708'],
    ],
  ],
  [
    'KY',
    1.4,
    [
      ['Louisville', '402'],
      ['Lexington', '405'],
    ],
  ],
  [
    'OR',
    1.3,
    [
      ['Portland', '972'],
      ['Eugene', '974'],
    ],
  ],
  [
    'OK',
    1.2,
    [
      ['Oklahoma City', '731'],
      ['Tulsa', '741'],
    ],
  ],
  [
    'CT',
    1.1,
    [
      ['Hartford', '061'],
      ['New Haven', '065'],
    ],
  ],
  [
    'UT',
    1.0,
    [
      ['Salt Lake City', '841'],
      ['Provo', '846'],
    ],
  ],
  [
    'IA',
    1.0,
    [
      ['Des Moines', '503'],
      ['Cedar Rapids', '524'],
    ],
  ],
  [
    'NV',
    0.9,
    [
      ['Las Vegas', '891'],
      ['Reno', '895'],
    ],
  ],
  [
    'AR',
    0.9,
    [
      ['Little Rock', '722'],
      ['Fayetteville', '727'],
    ],
  ],
  [
    'MS',
    0.9,
    [
      ['Jackson', '392'],
      ['Gulfport', '395'],
    ],
  ],
  [
    'KS',
    0.9,
    [
      ['Wichita', '672'],
      ['Overland Park', '662'],
    ],
  ],
  [
    'NM',
    0.6,
    [
      ['Albuquerque', '871'],
      ['Santa Fe', '875'],
    ],
  ],
  [
    'NE',
    0.6,
    [
      ['Omaha', '681'],
      ['Lincoln', '685'],
    ],
  ],
  ['ID', 0.6, [['Boise', '837']]],
  ['WV', 0.5, [['Charleston', '253']]],
  ['HI', 0.4, [['Honolulu', '968']]],
  ['NH', 0.4, [['Manchester', '031']]],
  ['ME', 0.4, [['Portland', '041']]],
  ['MT', 0.3, [['Billings', '591']]],
  ['RI', 0.3, [['Providence', '029']]],
  ['DE', 0.3, [['Wilmington', '198']]],
  ['SD', 0.3, [['Sioux Falls', '571']]],
  ['ND', 0.2, [['Fargo', '581']]],
  ['AK', 0.2, [['Anchorage', '995']]],
  ['DC', 0.2, [['Washington', '200']]],
  ['VT', 0.2, [['Burlington', '054']]],
  ['WY', 0.2, [['Cheyenne', '820']]],
];

/** Federal Reserve bank holidays (observed dates), years from..to. */
export function bankHolidays(from: number, to: number): Array<{ day: string; name: string }> {
  const out: Array<{ day: string; name: string }> = [];
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const nth = (y: number, m: number, weekday: number, n: number) => {
    const d = new Date(Date.UTC(y, m, 1));
    while (d.getUTCDay() !== weekday) d.setUTCDate(d.getUTCDate() + 1);
    d.setUTCDate(d.getUTCDate() + 7 * (n - 1));
    return d;
  };
  const last = (y: number, m: number, weekday: number) => {
    const d = new Date(Date.UTC(y, m + 1, 0));
    while (d.getUTCDay() !== weekday) d.setUTCDate(d.getUTCDate() - 1);
    return d;
  };
  // The Fed observes a Sunday holiday on Monday and does not move a Saturday one.
  const fixed = (y: number, m: number, day: number) => {
    const d = new Date(Date.UTC(y, m, day));
    if (d.getUTCDay() === 0) d.setUTCDate(d.getUTCDate() + 1);
    return d.getUTCDay() === 6 ? null : d;
  };
  for (let y = from; y <= to; y++) {
    const days: Array<[Date | null, string]> = [
      [fixed(y, 0, 1), "New Year's Day"],
      [nth(y, 0, 1, 3), 'Martin Luther King Jr. Day'],
      [nth(y, 1, 1, 3), "Washington's Birthday"],
      [last(y, 4, 1), 'Memorial Day'],
      [y >= 2022 ? fixed(y, 5, 19) : null, 'Juneteenth'],
      [fixed(y, 6, 4), 'Independence Day'],
      [nth(y, 8, 1, 1), 'Labor Day'],
      [nth(y, 9, 1, 2), 'Columbus Day'],
      [fixed(y, 10, 11), 'Veterans Day'],
      [nth(y, 10, 4, 4), 'Thanksgiving Day'],
      [fixed(y, 11, 25), 'Christmas Day'],
    ];
    for (const [d, name] of days) if (d) out.push({ day: iso(d), name });
  }
  return out;
}

export const FIRST_NAMES = [
  'James',
  'Maria',
  'Robert',
  'Linda',
  'Michael',
  'Patricia',
  'David',
  'Jennifer',
  'Carlos',
  'Elizabeth',
  'Daniel',
  'Susan',
  'Kevin',
  'Jessica',
  'Anthony',
  'Sarah',
  'Luis',
  'Karen',
  'Brian',
  'Nancy',
  'Jose',
  'Lisa',
  'Hiroshi',
  'Priya',
  'Ahmed',
  'Mei',
  'Olga',
  'Tyrone',
  'Fatima',
  'Dmitri',
];
export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Garcia',
  'Martinez',
  'Brown',
  'Davis',
  'Rodriguez',
  'Wilson',
  'Anderson',
  'Lee',
  'Nguyen',
  'Patel',
  'Kim',
  'Thompson',
  'White',
  'Harris',
  'Clark',
  'Lewis',
  'Walker',
  'Hall',
  'Young',
  'Allen',
  'Chen',
  'Lopez',
  'Gonzalez',
  'Khan',
  'Ivanov',
  'Okafor',
  'Rossi',
  'Murphy',
];

/** Words a business name is made of, by kind of business. */
export const BUSINESS_WORDS: Record<Mcc['kind'], { nouns: readonly string[]; suffixes: readonly string[] }> =
  {
    food: {
      nouns: [
        'Grill',
        'Kitchen',
        'Bistro',
        'Taqueria',
        'Diner',
        'Pizzeria',
        'Noodle House',
        'Cafe',
        'Smokehouse',
        'Bakery',
        'Sushi Bar',
        'Cantina',
      ],
      suffixes: ['', '', 'Co.', '& Bar'],
    },
    retail: {
      nouns: [
        'Market',
        'Outfitters',
        'Boutique',
        'Supply',
        'Goods',
        'Emporium',
        'Mercantile',
        'Trading Post',
        'Shop',
        'Depot',
      ],
      suffixes: ['', 'LLC', 'Co.'],
    },
    service: {
      nouns: ['Salon', 'Studio', 'Spa', 'Barbers', 'Cleaners', 'Fitness', 'Wellness', 'Laundry'],
      suffixes: ['', 'LLC'],
    },
    auto: {
      nouns: ['Auto Care', 'Motors', 'Tire & Brake', 'Auto Parts', 'Car Wash', 'Fuel Stop', 'Collision'],
      suffixes: ['', 'Inc.', 'LLC'],
    },
    health: {
      nouns: [
        'Family Dental',
        'Medical Group',
        'Pharmacy',
        'Vision Center',
        'Animal Hospital',
        'Chiropractic',
        'Pediatrics',
      ],
      suffixes: ['', 'PC', 'PLLC'],
    },
    travel: { nouns: ['Inn', 'Suites', 'Travel', 'Lodge', 'Limousine', 'Tours'], suffixes: ['', 'LLC'] },
    online: {
      nouns: ['Direct', 'Online', 'Subscriptions', 'Commerce', 'Box Club', 'Digital'],
      suffixes: ['Inc.', 'LLC'],
    },
    professional: {
      nouns: [
        'Law Group',
        'Accounting',
        'Contractors',
        'Plumbing & Air',
        'Consulting',
        'Builders',
        'Academy',
        'Services',
      ],
      suffixes: ['Inc.', 'LLC', 'Group'],
    },
  };

export const PLACE_WORDS = [
  'Oak',
  'Maple',
  'Harbor',
  'Sunset',
  'Main Street',
  'Riverside',
  'Golden',
  'Summit',
  'Cedar',
  'Lakeside',
  'Pioneer',
  'Union',
  'Liberty',
  'Blue Sky',
  'Red Rock',
  'Silver',
  'Northside',
  'Eastgate',
  'Westfield',
  'Coastal',
  'Prairie',
  'Highland',
  'Magnolia',
  'Cypress',
  'Granite',
  'Bayview',
  'Copper',
  'Evergreen',
  'Willow',
  'Heritage',
];

export const ISO_WORDS_A = [
  'Apex',
  'Beacon',
  'Cardinal',
  'Crescent',
  'Frontier',
  'Gateway',
  'Horizon',
  'Ironwood',
  'Keystone',
  'Landmark',
  'Meridian',
  'Northstar',
  'Pinnacle',
  'Redwood',
  'Sterling',
  'Trident',
  'Vanguard',
  'Westbridge',
  'Atlas',
  'Bluewater',
  'Cornerstone',
  'Everest',
  'Falcon',
  'Granite',
  'Harvest',
  'Liberty',
  'Monarch',
  'Patriot',
  'Sequoia',
  'Titan',
];
export const ISO_WORDS_B = [
  'Payments',
  'Merchant Services',
  'Card Solutions',
  'Processing',
  'Bankcard',
  'Payment Systems',
  'Commerce',
  'Merchant Group',
  'Transaction Services',
  'Capital',
];

export const STAFF = {
  rms: ['Dana Whitfield', 'Marcus Ortega', 'Priya Raman', 'Jonah Feld', 'Celia Moreno', 'Grant Okoye'],
  underwriters: ['Helen Cho', 'Victor Almeida', 'Rachel Stein', 'Omar Haddad', 'Beth Lindqvist'],
  recruiters: ['Alicia Brennan', 'Tom Kessler', 'Nadia Petrova'],
};
