/**
 * Word lists of the demo catalogue: real cities and zones, artist names in many scripts,
 * venue and festival names. Names are fiction built from these parts (plus a few well-known
 * names so the demo reads naturally); nothing here claims real dates.
 */

export interface City {
  readonly locality: string;
  readonly countryName: string;
  readonly countryCode: string;
  readonly zone: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly street: string;
  readonly postcode: string;
}

const city = (
  locality: string, countryName: string, countryCode: string, zone: string,
  latitude: number, longitude: number, street: string, postcode: string,
): City => ({ locality, countryName, countryCode, zone, latitude, longitude, street, postcode });

export const CITIES: readonly City[] = [
  city('Reykjavík', 'Iceland', 'IS', 'Atlantic/Reykjavik', 64.1466, -21.9426, 'Austurbakki', '101'),
  city('London', 'United Kingdom', 'GB', 'Europe/London', 51.5072, -0.1276, 'Camden High Street', 'NW1 7JE'),
  city('Manchester', 'United Kingdom', 'GB', 'Europe/London', 53.4808, -2.2426, 'Oxford Road', 'M1 5QA'),
  city('Dublin', 'Ireland', 'IE', 'Europe/Dublin', 53.3498, -6.2603, 'Dame Street', 'D02'),
  city('Paris', 'France', 'FR', 'Europe/Paris', 48.8566, 2.3522, 'Boulevard Voltaire', '75011'),
  city('Lyon', 'France', 'FR', 'Europe/Paris', 45.764, 4.8357, 'Quai Rambaud', '69002'),
  city('Berlin', 'Germany', 'DE', 'Europe/Berlin', 52.52, 13.405, 'Revaler Straße', '10245'),
  city('Köln', 'Germany', 'DE', 'Europe/Berlin', 50.9375, 6.9603, 'Venloer Straße', '50672'),
  city('Amsterdam', 'Netherlands', 'NL', 'Europe/Amsterdam', 52.3676, 4.9041, 'Weteringschans', '1017 SG'),
  city('Brussels', 'Belgium', 'BE', 'Europe/Brussels', 50.8503, 4.3517, 'Boulevard Anspach', '1000'),
  city('Zürich', 'Switzerland', 'CH', 'Europe/Zurich', 47.3769, 8.5417, 'Langstrasse', '8004'),
  city('Wien', 'Austria', 'AT', 'Europe/Vienna', 48.2082, 16.3738, 'Gürtel', '1080'),
  city('Praha', 'Czechia', 'CZ', 'Europe/Prague', 50.0755, 14.4378, 'Vinohradská', '120 00'),
  city('Kraków', 'Poland', 'PL', 'Europe/Warsaw', 50.0647, 19.945, 'ulica Józefa', '31-056'),
  city('København', 'Denmark', 'DK', 'Europe/Copenhagen', 55.6761, 12.5683, 'Vesterbrogade', '1620'),
  city('Malmö', 'Sweden', 'SE', 'Europe/Stockholm', 55.605, 13.0038, 'Bergsgatan', '214 22'),
  city('Stockholm', 'Sweden', 'SE', 'Europe/Stockholm', 59.3293, 18.0686, 'Götgatan', '118 46'),
  city('Oslo', 'Norway', 'NO', 'Europe/Oslo', 59.9139, 10.7522, 'Grønland', '0188'),
  city('Helsinki', 'Finland', 'FI', 'Europe/Helsinki', 60.1699, 24.9384, 'Mannerheimintie', '00100'),
  city('Barcelona', 'Spain', 'ES', 'Europe/Madrid', 41.3874, 2.1686, 'Carrer de Pamplona', '08005'),
  city('Madrid', 'Spain', 'ES', 'Europe/Madrid', 40.4168, -3.7038, 'Calle de Alcalá', '28009'),
  city('Lisboa', 'Portugal', 'PT', 'Europe/Lisbon', 38.7223, -9.1393, 'Avenida da Liberdade', '1250-096'),
  city('Milano', 'Italy', 'IT', 'Europe/Rome', 45.4642, 9.19, 'Via Valtellina', '20159'),
  city('Roma', 'Italy', 'IT', 'Europe/Rome', 41.9028, 12.4964, 'Via Ostiense', '00154'),
  city('Athína', 'Greece', 'GR', 'Europe/Athens', 37.9838, 23.7275, 'Odos Peiraios', '104 35'),
  city('İstanbul', 'Türkiye', 'TR', 'Europe/Istanbul', 41.0082, 28.9784, 'İstiklal Caddesi', '34433'),
  city('Москва', 'Russia', 'RU', 'Europe/Moscow', 55.7558, 37.6173, 'Тверская улица', '125009'),
  city('Kyiv', 'Ukraine', 'UA', 'Europe/Kyiv', 50.4501, 30.5234, 'Khreshchatyk', '01001'),
  city('Tbilisi', 'Georgia', 'GE', 'Asia/Tbilisi', 41.7151, 44.8271, 'Rustaveli Avenue', '0108'),
  city('Dubai', 'United Arab Emirates', 'AE', 'Asia/Dubai', 25.2048, 55.2708, 'Sheikh Zayed Road', '00000'),
  city('Mumbai', 'India', 'IN', 'Asia/Kolkata', 19.076, 72.8777, 'Linking Road', '400050'),
  city('Kathmandu', 'Nepal', 'NP', 'Asia/Kathmandu', 27.7172, 85.324, 'Thamel Marg', '44600'),
  city('Bangkok', 'Thailand', 'TH', 'Asia/Bangkok', 13.7563, 100.5018, 'Sukhumvit Road', '10110'),
  city('Singapore', 'Singapore', 'SG', 'Asia/Singapore', 1.3521, 103.8198, 'Esplanade Drive', '038981'),
  city('香港', 'Hong Kong', 'HK', 'Asia/Hong_Kong', 22.3193, 114.1694, 'Queen’s Road Central', '999077'),
  city('上海', 'China', 'CN', 'Asia/Shanghai', 31.2304, 121.4737, 'Huaihai Road', '200031'),
  city('Seoul', 'South Korea', 'KR', 'Asia/Seoul', 37.5665, 126.978, 'Wausan-ro', '04038'),
  city('東京', 'Japan', 'JP', 'Asia/Tokyo', 35.6762, 139.6503, 'Kitanomaru Koen', '102-8321'),
  city('Ōsaka', 'Japan', 'JP', 'Asia/Tokyo', 34.6937, 135.5023, 'Namba', '542-0076'),
  city('Sydney', 'Australia', 'AU', 'Australia/Sydney', -33.8688, 151.2093, 'Bennelong Point', '2000'),
  city('Melbourne', 'Australia', 'AU', 'Australia/Melbourne', -37.8136, 144.9631, 'Brunswick Street', '3065'),
  city('Adelaide', 'Australia', 'AU', 'Australia/Adelaide', -34.9285, 138.6007, 'Hindley Street', '5000'),
  city('Auckland', 'New Zealand', 'NZ', 'Pacific/Auckland', -36.8485, 174.7633, 'Karangahape Road', '1010'),
  city('Chatham', 'New Zealand', 'NZ', 'Pacific/Chatham', -43.9535, -176.5597, 'Waitangi Road', '8942'),
  city('Honolulu', 'United States', 'US', 'Pacific/Honolulu', 21.3069, -157.8583, 'Kapiolani Boulevard', '96814'),
  city('Los Angeles', 'United States', 'US', 'America/Los_Angeles', 34.0522, -118.2437, 'Sunset Boulevard', '90028'),
  city('Seattle', 'United States', 'US', 'America/Los_Angeles', 47.6062, -122.3321, 'Pike Street', '98101'),
  city('Denver', 'United States', 'US', 'America/Denver', 39.7392, -104.9903, 'Colfax Avenue', '80203'),
  city('Phoenix', 'United States', 'US', 'America/Phoenix', 33.4484, -112.074, 'Washington Street', '85004'),
  city('Chicago', 'United States', 'US', 'America/Chicago', 41.8781, -87.6298, 'North Clark Street', '60610'),
  city('New Orleans', 'United States', 'US', 'America/Chicago', 29.9511, -90.0715, 'Frenchmen Street', '70116'),
  city('New York', 'United States', 'US', 'America/New_York', 40.7128, -74.006, 'Bowery', '10002'),
  city('Montréal', 'Canada', 'CA', 'America/Toronto', 45.5019, -73.5674, 'Boulevard Saint-Laurent', 'H2X 2T3'),
  city('St. John’s', 'Canada', 'CA', 'America/St_Johns', 47.5615, -52.7126, 'George Street', 'A1C 1B5'),
  city('Ciudad de México', 'Mexico', 'MX', 'America/Mexico_City', 19.4326, -99.1332, 'Avenida Insurgentes Sur', '06700'),
  city('La Habana', 'Cuba', 'CU', 'America/Havana', 23.1136, -82.3666, 'Calle 23', '10400'),
  city('Bogotá', 'Colombia', 'CO', 'America/Bogota', 4.711, -74.0721, 'Carrera Séptima', '110311'),
  city('São Paulo', 'Brazil', 'BR', 'America/Sao_Paulo', -23.5505, -46.6333, 'Rua Augusta', '01305-000'),
  city('Buenos Aires', 'Argentina', 'AR', 'America/Argentina/Buenos_Aires', -34.6037, -58.3816, 'Avenida Corrientes', 'C1043'),
  city('Santiago', 'Chile', 'CL', 'America/Santiago', -33.4489, -70.6693, 'Avenida Providencia', '7500000'),
  city('Lagos', 'Nigeria', 'NG', 'Africa/Lagos', 6.5244, 3.3792, 'Adeola Odeku Street', '101241'),
  city('Dakar', 'Senegal', 'SN', 'Africa/Dakar', 14.7167, -17.4677, 'Route de la Corniche', '10200'),
  city('Nairobi', 'Kenya', 'KE', 'Africa/Nairobi', -1.2921, 36.8219, 'Kenyatta Avenue', '00100'),
  city('Johannesburg', 'South Africa', 'ZA', 'Africa/Johannesburg', -26.2041, 28.0473, 'Juta Street', '2001'),
  city('القاهرة', 'Egypt', 'EG', 'Africa/Cairo', 30.0444, 31.2357, 'Talaat Harb', '11511'),
];

/** Zones that no time-zone database knows: their Events have an indeterminate phase. */
export const UNKNOWN_ZONES = ['Mars/Olympus_Mons', 'Moon/Tranquility_Base', 'Europe/Atlantis'] as const;

/** Well-known names, [name, slug]; the first Artists of every demo catalogue. */
export const FAMOUS_ARTISTS: ReadonlyArray<readonly [string, string]> = [
  ['Beyoncé', 'beyonce'], ['Sigur Rós', 'sigur-ros'], ['坂本龍一', 'ryuichi-sakamoto'], ['Мумий Тролль', 'mumiy-troll'],
  ['Björk', 'bjork'], ['Motörhead', 'motorhead'], ['Rosalía', 'rosalia'], ['Mötley Crüe', 'motley-crue'],
  ['Ólafur Arnalds', 'olafur-arnalds'], ['Sinéad O’Connor', 'sinead-oconnor'], ['Måneskin', 'maneskin'],
  ['Daði Freyr', 'dadi-freyr'], ['Caetano Veloso', 'caetano-veloso'], ['Youssou N’Dour', 'youssou-ndour'],
  ['Tinariwen', 'tinariwen'], ['방탄소년단', 'bts'], ['宇多田ヒカル', 'hikaru-utada'], ['Кино', 'kino'],
  ['Αλκίνοος Ιωαννίδης', 'alkinoos-ioannidis'], ['فيروز', 'fairuz'], ['Amadou & Mariam', 'amadou-mariam'],
  ['Zoë Keating', 'zoe-keating'], ['Hüsker Dü', 'husker-du'], ['Jóhann Jóhannsson', 'johann-johannsson'],
  ['Françoise Hardy', 'francoise-hardy'], ['Los Ángeles Azules', 'los-angeles-azules'], ['Ibrahim Maalouf', 'ibrahim-maalouf'],
  ['Café Tacvba', 'cafe-tacvba'], ['Mariza', 'mariza'], ['Anoushka Shankar', 'anoushka-shankar'],
];

export const FIRST_NAMES = [
  'Ana', 'Zoë', 'José', 'Ingrid', 'Chloé', 'Søren', 'Łukasz', 'Ayşe', 'Nikolaj', 'Maëlle', 'Joaquín', 'Aoife',
  'Théo', 'Freya', 'Émile', 'Björn', 'Noémie', 'Ramón', 'Yuki', 'Oluwaseun', 'Dvořák', 'Renée', 'Kalani',
  'Mía', 'Ilse', 'Tomás', 'Agnès', 'Jürgen', 'Siobhán', 'Dagný', 'Priya', 'Chidi', 'Mateus', 'Linnéa',
];
export const LAST_NAMES = [
  'Álvarez', 'Nørgaard', 'Kowalczyk', 'Yılmaz', 'Brontë', 'Gonçalves', 'Müller', 'Ó Briain', 'Håkansson',
  'Dubois', 'Sánchez', 'Petrović', 'Nakamura', 'Adébáyọ̀', 'Haðarson', 'Lefèvre', 'Čapek', 'Ibáñez',
  'Virtanen', 'Kaur', 'Okafor', 'Esposito', 'Ferreira', 'Lindqvist', 'Szabó', 'MacLeòid', 'Ng', 'Mbeki',
];
export const BAND_ADJECTIVES = [
  'Velvet', 'Electric', 'Silent', 'Golden', 'Neon', 'Crystal', 'Midnight', 'Wandering', 'Hollow', 'Crimson',
  'Northern', 'Saltwater', 'Paper', 'Feral', 'Lunar', 'Quiet', 'Burning', 'Analogue', 'Tropical', 'Glass',
];
export const BAND_NOUNS = [
  'Foxes', 'Owls', 'Tides', 'Machines', 'Orchids', 'Satellites', 'Ghosts', 'Rivers', 'Lanterns', 'Wolves',
  'Harbours', 'Comets', 'Gardens', 'Signals', 'Pilots', 'Choirs', 'Islands', 'Echoes', 'Sparrows', 'Engines',
];
/** [name, slug] in scripts a slug cannot be made from. */
export const NON_LATIN_ACTS: ReadonlyArray<readonly [string, string]> = [
  ['夜の街', 'yoru-no-machi'], ['青い鳥', 'aoi-tori'], ['星野楽団', 'hoshino-gakudan'], ['Северный Ветер', 'severnyi-veter'],
  ['Белые Ночи', 'belye-nochi'], ['Ночные Снайперы', 'nochnye-snaipery'], ['달빛 소년', 'dalbit-sonyeon'],
  ['푸른 바다', 'pureun-bada'], ['Θάλασσα', 'thalassa'], ['Μελτέμι', 'meltemi'], ['صوت النيل', 'sawt-al-nil'],
  ['נגה', 'noga'], ['ดวงดาว', 'duang-dao'], ['天空之城', 'tiankong-zhi-cheng'], ['მთვარე', 'mtvare'],
];
export const DJ_PREFIXES = ['DJ', 'MC', 'Lady', 'Señor', 'Kid', 'Madame', 'Doctor'];

export const VENUE_PATTERNS = [
  '{city} Arena', '{city} Concert Hall', 'Le {word}', 'Club {word}', '{word} Hall', 'The {word} Room', 'Sala {word}',
  '{word} Ballroom', 'Café {word}', '{word} Warehouse', 'Teatro {word}', '{word} Lounge', '{word} Open Air',
  'Kulturhaus {word}', 'Salle {word}', '{word} Social Club',
];
export const VENUE_WORDS = [
  'Paradiso', 'Bataclan', 'Apollo', 'Astoria', 'Olympia', 'Razzmatazz', 'Fabrik', 'Lumière', 'Tivoli', 'Rotunda',
  'Øst', 'Mercado', 'Kesselhaus', 'Blue Note', 'Señorita', 'Fonoteca', 'Żuraw', 'Kalinka', 'Vortex', 'Mirador',
  'Harbour', 'Copper', 'Garage', 'Fábrica', 'Botanique', 'Ritz', 'Velodrom', 'Sirius', 'Gül', 'Aurora',
];
/** [name, locality of CITIES]: the first Venues of every demo catalogue. */
export const FAMOUS_VENUES: ReadonlyArray<readonly [string, string]> = [
  ['Harpa', 'Reykjavík'], ['Paradiso', 'Amsterdam'], ['Razzmatazz', 'Barcelona'], ['Le Bataclan', 'Paris'],
  ['日本武道館', '東京'], ['Royal Albert Hall', 'London'], ['Teatro Colón', 'Buenos Aires'], ['Лужники', 'Москва'],
];

export const FESTIVAL_NAMES = [
  'Sónar', 'Øya Festival', 'Roskilde Sound', 'Primavera Nights', 'フジロック', 'Iceland Airwaves', 'Festival de Jazz de Montréal',
  'Mawazine', 'Fête de la Musique', 'Kraków Live', 'Rock en Seine', 'Ньюфест', 'Pohoda', 'Lollapalooza Sur',
];
export const FESTIVAL_WORDS = ['Summer', 'Harbour', 'Northern Lights', 'Desert', 'Forest', 'Riverside', 'Winter', 'Island', 'Mountain', 'Garden'];
export const FESTIVAL_KINDS = ['Festival', 'Weekender', 'Open Air', 'Days', 'Fest', 'Biennale'];
export const DIRECT_SERIES_PATTERNS = [
  '{artist} World Tour', '{artist} — Residency', 'Jazz at {word}', 'Late Night Sessions', 'Sunday Matinées',
  '{word} Unplugged', 'Nuits de {word}', 'Noches de {word}', '{artist}: Farewell Tour', 'Open Mic at {word}',
];
export const TOUR_WORDS = ['Homecoming', 'Afterglow', 'Nordlys', 'Saudade', 'Mirrors', 'Sakura', 'Zenith', 'Ébène', 'Equinox'];

export const DESCRIPTIONS = [
  'An intimate evening of new songs and old favourites.',
  'Doors open one hour before the show. Standing only.',
  'Seated concert; latecomers admitted between pieces.',
  'A night of club music until late — bring your dancing shoes.',
  'Première of the new album, performed in full.',
  'All ages welcome. Accessible venue with step-free access.',
  'Un concert exceptionnel, en acoustique.',
  'Ein Abend voller Überraschungen.',
  'Concierto con entradas limitadas; ¡no te lo pierdas!',
  'コンサートは予定通り開催されます。',
  'Концерт состоится при любой погоде.',
];
