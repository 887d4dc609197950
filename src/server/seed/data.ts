// Word lists for the demo data: UK names, places, streets, companies and the dictionaries a
// lone-worker profile uses. Plain data, no logic.

export const FIRST_NAMES_F = [
  'Olivia', 'Amelia', 'Isla', 'Ava', 'Emily', 'Sophie', 'Grace', 'Mia', 'Poppy', 'Ella', 'Lily', 'Evie', 'Isabella',
  'Charlotte', 'Jessica', 'Daisy', 'Freya', 'Alice', 'Florence', 'Chloe', 'Ruby', 'Harriet', 'Holly', 'Lucy', 'Hannah',
  'Rebecca', 'Sarah', 'Laura', 'Emma', 'Claire', 'Rachel', 'Nicola', 'Helen', 'Karen', 'Joanne', 'Lisa', 'Michelle',
  'Amanda', 'Victoria', 'Catherine', 'Elizabeth', 'Louise', 'Gemma', 'Natalie', 'Kerry', 'Samantha', 'Kirsty', 'Zoe',
  'Megan', 'Bethany', 'Abigail', 'Niamh', 'Siobhan', 'Aisha', 'Priya', 'Fatima', 'Zainab', 'Amira', 'Anita', 'Sunita',
  'Deborah', 'Julie', 'Susan', 'Janet', 'Margaret', 'Patricia', 'Linda', 'Gillian', 'Fiona', 'Heather', 'Alison',
  'Eleanor', 'Imogen', 'Phoebe', 'Georgia', 'Katie', 'Jade', 'Leah', 'Paige', 'Shannon', 'Caitlin', 'Rhiannon', 'Carys',
  'Ffion', 'Eilidh', 'Morag', 'Kathryn', 'Maria', 'Agnieszka', 'Joanna', 'Yasmin', 'Naomi', 'Esther', 'Tanya', 'Maxine',
] as const;

export const FIRST_NAMES_M = [
  'Oliver', 'George', 'Harry', 'Noah', 'Jack', 'Leo', 'Arthur', 'Muhammad', 'Oscar', 'Charlie', 'Jacob', 'Thomas',
  'Henry', 'William', 'James', 'Alfie', 'Joshua', 'Freddie', 'Archie', 'Ethan', 'Isaac', 'Alexander', 'Joseph', 'Edward',
  'Samuel', 'Max', 'Daniel', 'Lucas', 'Benjamin', 'Theo', 'David', 'Michael', 'Paul', 'Mark', 'Andrew', 'Richard',
  'Stephen', 'Peter', 'Christopher', 'Matthew', 'Simon', 'Robert', 'John', 'Gareth', 'Craig', 'Darren', 'Lee', 'Wayne',
  'Gary', 'Neil', 'Ian', 'Graham', 'Kevin', 'Stuart', 'Scott', 'Jamie', 'Ryan', 'Liam', 'Connor', 'Callum', 'Kieran',
  'Declan', 'Sean', 'Rhys', 'Dylan', 'Owen', 'Evan', 'Ewan', 'Angus', 'Fraser', 'Hamish', 'Rory', 'Finlay', 'Aaron',
  'Adam', 'Ben', 'Luke', 'Nathan', 'Tom', 'Dominic', 'Patrick', 'Ahmed', 'Imran', 'Rajesh', 'Sanjay', 'Arjun', 'Vikram',
  'Tariq', 'Hassan', 'Kwame', 'Tobi', 'Marek', 'Piotr', 'Tomasz', 'Colin', 'Derek', 'Malcolm', 'Keith', 'Trevor',
] as const;

export const LAST_NAMES = [
  'Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Robinson', 'Wright', 'Thompson',
  'Evans', 'Walker', 'White', 'Roberts', 'Green', 'Hall', 'Wood', 'Jackson', 'Clarke', 'Patel', 'Khan', 'Lewis', 'James',
  'Phillips', 'Mason', 'Mitchell', 'Rose', 'Davis', 'Rodriguez', 'Cox', 'Alexander', 'Morris', 'Hughes', 'Edwards',
  'Turner', 'Harris', 'Martin', 'Cooper', 'Hill', 'Ward', 'Morgan', 'Scott', 'Baker', 'King', 'Harrison', 'Young',
  'Allen', 'Moore', 'Clark', 'Carter', 'Anderson', 'Lee', 'Parker', 'Bennett', 'Griffiths', 'Price', 'Richardson',
  'Shaw', 'Lloyd', 'Kelly', 'Campbell', 'Murphy', 'Bailey', 'Bell', 'Collins', 'Cook', 'Marshall', 'Simpson', 'Ellis',
  'Chapman', 'Powell', 'Webb', 'Rogers', 'Gray', 'Mills', 'Palmer', 'Holmes', 'Knight', 'Lane', 'Butler', 'Russell',
  'Barnes', 'Fisher', 'Stevens', 'Jenkins', 'Murray', 'Dixon', 'Harvey', 'Graham', 'Pearson', 'Ahmed', 'Fletcher',
  'Walsh', 'Kaur', 'Singh', 'Gibson', 'Howard', 'Andrews', 'Stewart', 'Elliott', 'Reynolds', 'Saunders', 'Payne',
  'Fox', 'Ford', 'Pearce', 'Day', 'Brooks', 'West', 'Lawrence', 'Cole', 'Atkinson', 'Bradley', 'Spencer', 'Gill',
  'Dawson', 'Ball', 'Burton', "O'Brien", 'Watts', 'Rees', 'Hunt', 'Reid', 'Hussain', 'Begum', 'Ali', 'Sharma', 'Nowak',
  'Kowalski', 'Okafor', 'Mensah', 'Macdonald', 'Fraser', 'Robertson', 'Ross', 'Henderson', 'Paterson', 'Hamilton',
  'Sutherland', 'McLean', 'McKenzie', 'Doherty', 'Quinn', 'Byrne', 'Gallagher', 'Owen', 'Pritchard', 'Vaughan',
  'Powell', 'Howells', 'Hopkins', 'Barker', 'Whitehead', 'Booth', 'Charlton', 'Nash', 'Sheppard', 'Holt', 'Hartley',
] as const;

/** name, county, postcode area, landline area code (after the 0), latitude, longitude, OS grid letters. */
export type Town = readonly [string, string, string, string, number, number, string];
export const TOWNS: readonly Town[] = [
  ['London', 'Greater London', 'SE', '20', 51.5072, -0.1276, 'TQ'],
  ['London', 'Greater London', 'N', '20', 51.556, -0.106, 'TQ'],
  ['London', 'Greater London', 'E', '20', 51.538, -0.02, 'TQ'],
  ['London', 'Greater London', 'SW', '20', 51.463, -0.166, 'TQ'],
  ['London', 'Greater London', 'W', '20', 51.51, -0.25, 'TQ'],
  ['Croydon', 'Greater London', 'CR', '20', 51.3762, -0.0982, 'TQ'],
  ['Manchester', 'Greater Manchester', 'M', '161', 53.4808, -2.2426, 'SJ'],
  ['Salford', 'Greater Manchester', 'M', '161', 53.4875, -2.2901, 'SJ'],
  ['Stockport', 'Greater Manchester', 'SK', '161', 53.4106, -2.1575, 'SJ'],
  ['Bolton', 'Greater Manchester', 'BL', '1204', 53.5769, -2.4282, 'SD'],
  ['Birmingham', 'West Midlands', 'B', '121', 52.4862, -1.8904, 'SP'],
  ['Coventry', 'West Midlands', 'CV', '24', 52.4068, -1.5197, 'SP'],
  ['Wolverhampton', 'West Midlands', 'WV', '1902', 52.5862, -2.1288, 'SO'],
  ['Leeds', 'West Yorkshire', 'LS', '113', 53.8008, -1.5491, 'SE'],
  ['Bradford', 'West Yorkshire', 'BD', '1274', 53.795, -1.7594, 'SE'],
  ['Wakefield', 'West Yorkshire', 'WF', '1924', 53.683, -1.4977, 'SE'],
  ['Sheffield', 'South Yorkshire', 'S', '114', 53.3811, -1.4701, 'SK'],
  ['Doncaster', 'South Yorkshire', 'DN', '1302', 53.5228, -1.1285, 'SE'],
  ['York', 'North Yorkshire', 'YO', '1904', 53.959, -1.0815, 'SE'],
  ['Harrogate', 'North Yorkshire', 'HG', '1423', 53.9921, -1.5418, 'SE'],
  ['Hull', 'East Riding of Yorkshire', 'HU', '1482', 53.7676, -0.3274, 'TA'],
  ['Liverpool', 'Merseyside', 'L', '151', 53.4084, -2.9916, 'SJ'],
  ['Birkenhead', 'Merseyside', 'CH', '151', 53.3934, -3.0148, 'SJ'],
  ['Preston', 'Lancashire', 'PR', '1772', 53.7632, -2.7031, 'SD'],
  ['Blackpool', 'Lancashire', 'FY', '1253', 53.8175, -3.0357, 'SD'],
  ['Lancaster', 'Lancashire', 'LA', '1524', 54.0466, -2.8007, 'SD'],
  ['Carlisle', 'Cumbria', 'CA', '1228', 54.8925, -2.9329, 'NY'],
  ['Newcastle upon Tyne', 'Tyne and Wear', 'NE', '191', 54.9783, -1.6178, 'NZ'],
  ['Sunderland', 'Tyne and Wear', 'SR', '191', 54.9069, -1.3838, 'NZ'],
  ['Durham', 'County Durham', 'DH', '191', 54.7761, -1.5733, 'NZ'],
  ['Middlesbrough', 'North Yorkshire', 'TS', '1642', 54.5742, -1.2349, 'NZ'],
  ['Nottingham', 'Nottinghamshire', 'NG', '115', 52.9548, -1.1581, 'SK'],
  ['Leicester', 'Leicestershire', 'LE', '116', 52.6369, -1.1398, 'SK'],
  ['Derby', 'Derbyshire', 'DE', '1332', 52.9225, -1.4746, 'SK'],
  ['Lincoln', 'Lincolnshire', 'LN', '1522', 53.2307, -0.5406, 'SK'],
  ['Northampton', 'Northamptonshire', 'NN', '1604', 52.2405, -0.9027, 'SP'],
  ['Stoke-on-Trent', 'Staffordshire', 'ST', '1782', 53.0027, -2.1794, 'SJ'],
  ['Shrewsbury', 'Shropshire', 'SY', '1743', 52.7073, -2.7553, 'SJ'],
  ['Worcester', 'Worcestershire', 'WR', '1905', 52.1936, -2.2216, 'SO'],
  ['Hereford', 'Herefordshire', 'HR', '1432', 52.0565, -2.716, 'SO'],
  ['Gloucester', 'Gloucestershire', 'GL', '1452', 51.8642, -2.2382, 'SO'],
  ['Bristol', 'Bristol', 'BS', '117', 51.4545, -2.5879, 'ST'],
  ['Bath', 'Somerset', 'BA', '1225', 51.3811, -2.359, 'ST'],
  ['Taunton', 'Somerset', 'TA', '1823', 51.0153, -3.1068, 'ST'],
  ['Exeter', 'Devon', 'EX', '1392', 50.7184, -3.5339, 'SX'],
  ['Plymouth', 'Devon', 'PL', '1752', 50.3755, -4.1427, 'SX'],
  ['Truro', 'Cornwall', 'TR', '1872', 50.2632, -5.051, 'SW'],
  ['Bournemouth', 'Dorset', 'BH', '1202', 50.7192, -1.8808, 'SZ'],
  ['Southampton', 'Hampshire', 'SO', '23', 50.9097, -1.4044, 'SU'],
  ['Portsmouth', 'Hampshire', 'PO', '23', 50.8198, -1.088, 'SZ'],
  ['Winchester', 'Hampshire', 'SO', '1962', 51.0632, -1.308, 'SU'],
  ['Reading', 'Berkshire', 'RG', '118', 51.4543, -0.9781, 'SU'],
  ['Oxford', 'Oxfordshire', 'OX', '1865', 51.752, -1.2577, 'SP'],
  ['Swindon', 'Wiltshire', 'SN', '1793', 51.5558, -1.7797, 'SU'],
  ['Salisbury', 'Wiltshire', 'SP', '1722', 51.0688, -1.7945, 'SU'],
  ['Guildford', 'Surrey', 'GU', '1483', 51.2362, -0.5704, 'SU'],
  ['Brighton', 'East Sussex', 'BN', '1273', 50.8225, -0.1372, 'TQ'],
  ['Crawley', 'West Sussex', 'RH', '1293', 51.1091, -0.1872, 'TQ'],
  ['Maidstone', 'Kent', 'ME', '1622', 51.2704, 0.5227, 'TQ'],
  ['Canterbury', 'Kent', 'CT', '1227', 51.2802, 1.0789, 'TR'],
  ['Chelmsford', 'Essex', 'CM', '1245', 51.7356, 0.469, 'TL'],
  ['Colchester', 'Essex', 'CO', '1206', 51.8959, 0.8919, 'TL'],
  ['Cambridge', 'Cambridgeshire', 'CB', '1223', 52.2053, 0.1218, 'TL'],
  ['Peterborough', 'Cambridgeshire', 'PE', '1733', 52.5695, -0.2405, 'TL'],
  ['Norwich', 'Norfolk', 'NR', '1603', 52.6309, 1.2974, 'TG'],
  ['Ipswich', 'Suffolk', 'IP', '1473', 52.0567, 1.1482, 'TM'],
  ['Luton', 'Bedfordshire', 'LU', '1582', 51.8787, -0.42, 'TL'],
  ['Milton Keynes', 'Buckinghamshire', 'MK', '1908', 52.0406, -0.7594, 'SP'],
  ['St Albans', 'Hertfordshire', 'AL', '1727', 51.7527, -0.3394, 'TL'],
  ['Chester', 'Cheshire', 'CH', '1244', 53.1934, -2.8931, 'SJ'],
  ['Warrington', 'Cheshire', 'WA', '1925', 53.39, -2.597, 'SJ'],
  ['Cardiff', 'South Glamorgan', 'CF', '29', 51.4816, -3.1791, 'ST'],
  ['Swansea', 'West Glamorgan', 'SA', '1792', 51.6214, -3.9436, 'SS'],
  ['Newport', 'Gwent', 'NP', '1633', 51.5842, -2.9977, 'ST'],
  ['Wrexham', 'Clwyd', 'LL', '1978', 53.0466, -2.9925, 'SJ'],
  ['Glasgow', 'Lanarkshire', 'G', '141', 55.8642, -4.2518, 'NS'],
  ['Edinburgh', 'Midlothian', 'EH', '131', 55.9533, -3.1883, 'NT'],
  ['Aberdeen', 'Aberdeenshire', 'AB', '1224', 57.1497, -2.0943, 'NJ'],
  ['Dundee', 'Angus', 'DD', '1382', 56.462, -2.9707, 'NO'],
  ['Inverness', 'Inverness-shire', 'IV', '1463', 57.4778, -4.2247, 'NH'],
  ['Stirling', 'Stirlingshire', 'FK', '1786', 56.1165, -3.9369, 'NS'],
  ['Belfast', 'County Antrim', 'BT', '28', 54.5973, -5.9301, 'J'],
  ['Derry', 'County Londonderry', 'BT', '28', 54.9966, -7.3086, 'C'],
];

export const STREET_NAMES = [
  'High', 'Station', 'Church', 'Victoria', 'Park', 'Green', 'Manor', 'Mill', 'Queen', 'King', 'Kingsway', 'New',
  'School', 'London', 'York', 'North', 'South', 'West', 'East', 'Windsor', 'Chester', 'Springfield', 'Grange',
  'Highfield', 'Albert', 'Alexandra', 'Richmond', 'Stanley', 'Beech', 'Oak', 'Elm', 'Ash', 'Willow', 'Cedar', 'Birch',
  'Meadow', 'Orchard', 'Chapel', 'Bridge', 'Market', 'Castle', 'Abbey', 'Priory', 'Cromwell', 'Nelson', 'Wellington',
  'Mount Pleasant', 'Brook', 'Riverside', 'Hillside', 'Broad', 'Grove', 'Holly', 'Ivy', 'Rectory', 'Vicarage',
  'Sandringham', 'Balmoral', 'Clarence', 'Cavendish', 'Fairfield', 'Westfield', 'Woodland', 'Heath', 'Moor',
  'Canal', 'Wharf', 'Foundry', 'Tannery', 'Mulberry', 'Primrose', 'Bluebell', 'Heather', 'Rowan', 'Hawthorn',
] as const;
export const STREET_TYPES = ['Street', 'Road', 'Lane', 'Avenue', 'Close', 'Drive', 'Way', 'Gardens', 'Crescent', 'Place', 'Terrace', 'Court', 'Row', 'Walk'] as const;
export const BUSINESS_PLACES = [
  'Riverside Business Park', 'Enterprise House', 'Kingsway Business Centre', 'Gateway House', 'The Old Mill',
  'Innovation Centre', 'Phoenix Court', 'Meridian House', 'Lakeside Park', 'Trinity Court', 'Mercury House',
  'Pennine House', 'Castle Court', 'Wharfside', 'Cathedral Buildings', 'Exchange Quay', 'Sovereign House',
  'Victoria Works', 'Orbital Park', 'Waterfront House', 'Abbey Mills', 'Regent Place',
] as const;
export const LOCALITIES = [
  'Northfield', 'Southside', 'Westbury', 'Eastwood', 'Old Town', 'Hillcrest', 'Parkside', 'Moorside', 'Brookfield',
  'Ashton', 'Newtown', 'Kingsmead', 'Broadlands', 'Millbrook', 'Fairview', 'Oakwood', 'Greenhill', 'Castleton',
] as const;
/** Postcode inward letters exclude C, I, K, M, O, V. */
export const POSTCODE_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

export const COMPANY_PREFIXES = [
  'Northwold', 'Brightwater', 'Oakridge', 'Riverside', 'Greenfield', 'Kingsbridge', 'Westmoor', 'Eastgate', 'Highcliffe',
  'Silverdale', 'Ashford', 'Millbrook', 'Stonebridge', 'Fairhaven', 'Hollybrook', 'Redhill', 'Beacon', 'Pennine',
  'Cotswold', 'Chiltern', 'Mendip', 'Severn', 'Trent', 'Mersey', 'Tyne', 'Humber', 'Thames', 'Solent', 'Wessex',
  'Mercia', 'Anglia', 'Cambrian', 'Caledonian', 'Lakeland', 'Dales', 'Moorland', 'Heartwood', 'Evergreen', 'Harbour',
  'Meridian', 'Summit', 'Keystone', 'Lighthouse', 'Compass', 'Anchor', 'Sterling', 'Crown', 'Albion', 'Phoenix',
  'Orchard', 'Willowbank', 'Elmwood', 'Birchfield', 'Larchmont', 'Rosewood', 'Castlegate', 'Abbeyfield', 'Priory',
  'Hawthorne', 'Bluebell', 'Foxglove', 'Kestrel', 'Heron', 'Swallow', 'Osprey', 'Avalon', 'Sovereign', 'Unity',
] as const;
export const COMPANY_SUFFIXES = [
  'Housing Trust', 'Housing Association', 'Homes', 'Care Ltd', 'Care Services', 'Home Care', 'Healthcare NHS Trust',
  'Community Care', 'Facilities Management', 'Security Services', 'Property Services', 'Estates', 'Lettings',
  'Utilities', 'Water', 'Energy Services', 'Gas Networks', 'Engineering Ltd', 'Maintenance Ltd', 'Cleaning Services',
  'Logistics', 'Couriers', 'Transport Ltd', 'Environmental Services', 'Social Care', 'Support Services', 'Charity',
  'Foundation', 'Surveyors', 'Pharmacy Group', 'Veterinary Group', 'Retail Group', 'Construction Ltd', 'Rail Services',
  'Borough Council', 'District Council', 'Parking Services', 'Waste Management', 'Outreach', 'Mental Health Services',
] as const;
export const REGION_QUALIFIERS = ['North', 'South', 'East', 'West', 'Midlands', 'Scotland', 'Wales', 'Northern Ireland', 'Group', 'Partnership'] as const;

export const INTERNAL_ACCOUNT_NAMES = ['ARC Internal Testing', 'Sales Demo Account', 'Device Lab', 'QA Regression Account', 'Training Account'] as const;

export const JOB_SECTORS = [
  'Housing', 'Healthcare', 'Social Care', 'Local Government', 'Utilities', 'Energy', 'Retail', 'Security',
  'Facilities Management', 'Transport and Logistics', 'Construction', 'Education', 'Charity', 'Property', 'Environmental Services',
] as const;
/** Job roles per sector index (same order as JOB_SECTORS). */
export const JOB_ROLES: readonly (readonly string[])[] = [
  ['Housing Officer', 'Tenancy Support Officer', 'Repairs Operative', 'Neighbourhood Officer', 'Income Officer'],
  ['Community Nurse', 'Midwife', 'Health Visitor', 'Paramedic', 'Mental Health Practitioner'],
  ['Care Worker', 'Social Worker', 'Support Worker', 'Outreach Worker', 'Occupational Therapist'],
  ['Enforcement Officer', 'Environmental Health Officer', 'Planning Officer', 'Parking Attendant', 'Licensing Officer'],
  ['Meter Reader', 'Field Engineer', 'Network Technician', 'Leakage Inspector', 'Customer Field Agent'],
  ['Gas Engineer', 'Smart Meter Installer', 'Wind Turbine Technician', 'Electrical Engineer', 'Site Surveyor'],
  ['Store Manager', 'Night Shift Supervisor', 'Loss Prevention Officer', 'Key Holder', 'Delivery Driver'],
  ['Security Officer', 'Mobile Patrol Officer', 'Key Holding Response Officer', 'Door Supervisor', 'CCTV Operator'],
  ['Caretaker', 'Cleaning Operative', 'Maintenance Engineer', 'Site Manager', 'Porter'],
  ['HGV Driver', 'Courier', 'Depot Operative', 'Bus Driver', 'Rail Inspector'],
  ['Site Supervisor', 'Surveyor', 'Scaffolder', 'Project Manager', 'Building Inspector'],
  ['Teacher', 'Education Welfare Officer', 'Site Supervisor', 'Tutor', 'School Nurse'],
  ['Fundraiser', 'Outreach Worker', 'Volunteer Coordinator', 'Shop Manager', 'Support Worker'],
  ['Estate Agent', 'Lettings Negotiator', 'Property Inspector', 'Surveyor', 'Block Manager'],
  ['Refuse Collector', 'Pest Control Technician', 'Park Ranger', 'Street Cleaner', 'Waste Officer'],
];
export const JOB_TITLE_PREFIXES = ['', '', '', 'Senior ', 'Lead ', 'Trainee ', 'Principal ', 'Assistant '] as const;

export const TITLES = ['Mr', 'Mrs', 'Miss', 'Ms', 'Dr', 'Mx'] as const;
export const GENDERS = ['Male', 'Female'] as const;
export const RISK_PROFILES = [
  'Lone working', 'Visits to unknown addresses', 'Out-of-hours working', 'Verbal aggression', 'Physical violence history',
  'Working at height', 'Driving long distances', 'Handling cash', 'Remote rural locations', 'Working with animals',
  'Confined spaces', 'Client with known risk markers', 'Night shifts',
] as const;
export const MEDICAL_CONDITIONS = [
  'Asthma', 'Type 1 diabetes', 'Type 2 diabetes', 'Epilepsy', 'Angina', 'Hypertension', 'Severe nut allergy',
  'Penicillin allergy', 'Bee sting allergy (carries EpiPen)', 'Migraine', 'Heart pacemaker', 'Arthritis', 'Anaemia',
] as const;
export const HEARING_LEVELS = ['Mild', 'Moderate', 'Severe', 'Profound'] as const;
export const BLOOD_TYPES = ['O+', 'O-', 'A+', 'A-', 'B+', 'B-', 'AB+', 'AB-'] as const;
export const ETHNICITIES = [
  'White - English, Welsh, Scottish, Northern Irish or British', 'White - Irish', 'White - Other', 'Mixed - White and Black Caribbean',
  'Mixed - White and Asian', 'Asian or Asian British - Indian', 'Asian or Asian British - Pakistani',
  'Asian or Asian British - Bangladeshi', 'Asian or Asian British - Chinese', 'Black or Black British - African',
  'Black or Black British - Caribbean', 'Other ethnic group - Arab', 'Prefer not to say',
] as const;
export const HAIR_COLORS = ['Black', 'Brown', 'Dark Brown', 'Light Brown', 'Blonde', 'Red', 'Auburn', 'Grey', 'White', 'Bald'] as const;
export const EYE_COLORS = ['Brown', 'Blue', 'Green', 'Hazel', 'Grey', 'Amber'] as const;
export const DISTINGUISHING_FEATURES = [
  ['Tattoo', 'Rose tattoo on left forearm'], ['Tattoo', 'Script tattoo on right wrist'], ['Scar', 'Small scar above right eyebrow'],
  ['Scar', 'Scar on left cheek'], ['Piercing', 'Nose stud'], ['Piercing', 'Multiple ear piercings'], ['Glasses', 'Wears dark-framed glasses'],
  ['Beard', 'Full beard'], ['Birthmark', 'Birthmark on neck'], ['Walking aid', 'Uses a walking stick'],
] as const;
export const VEHICLE_MAKES: readonly (readonly [string, readonly string[]])[] = [
  ['Ford', ['Fiesta', 'Focus', 'Transit Custom', 'Kuga', 'Puma']],
  ['Vauxhall', ['Corsa', 'Astra', 'Vivaro', 'Mokka']],
  ['Volkswagen', ['Golf', 'Polo', 'Transporter', 'Tiguan']],
  ['Toyota', ['Yaris', 'Corolla', 'C-HR', 'RAV4']],
  ['Nissan', ['Qashqai', 'Juke', 'Leaf', 'Micra']],
  ['Kia', ['Sportage', 'Niro', 'Ceed', 'Picanto']],
  ['Hyundai', ['Tucson', 'i10', 'i20', 'Kona']],
  ['Skoda', ['Octavia', 'Fabia', 'Superb']],
  ['Peugeot', ['208', '2008', 'Partner', '308']],
  ['Renault', ['Clio', 'Kangoo', 'Captur']],
  ['BMW', ['1 Series', '3 Series', 'X1']],
  ['Mercedes-Benz', ['A-Class', 'Sprinter', 'Vito']],
  ['Tesla', ['Model 3', 'Model Y']],
  ['MG', ['MG4', 'ZS', 'HS']],
];
export const VEHICLE_COLORS = ['White', 'Black', 'Silver', 'Grey', 'Blue', 'Red', 'Green', 'Yellow', 'Orange', 'Brown'] as const;
export const RELATIONSHIPS = ['Partner', 'Spouse', 'Mother', 'Father', 'Sister', 'Brother', 'Son', 'Daughter', 'Friend', 'Line manager', 'Colleague', 'Neighbour'] as const;

export const TEAM_NAMES = [
  'Housing Officers', 'Repairs Team', 'Community Nursing', 'Night Shift', 'Field Engineers', 'Mobile Patrol',
  'Neighbourhood Team', 'Outreach', 'Out of Hours', 'Estates', 'Meter Readers', 'Care at Home', 'Enforcement',
  'Lettings', 'Rapid Response', 'North Patch', 'South Patch', 'East Patch', 'West Patch', 'Head Office',
] as const;
export const ESCALATION_PLAN_NAMES = ['Standard escalation', 'Out of hours escalation', 'High-risk visit plan', 'Weekend cover', 'Default plan'] as const;
export const ESCALATION_INSTRUCTIONS = [
  'Call the user on their mobile and attempt to verify their safety.',
  'If no answer, call the line manager.',
  'If the line manager is unavailable, call the duty manager.',
  'If a genuine incident is confirmed, request police attendance using the URN.',
  'Call the out-of-hours on-call officer.',
  'Inform the customer account safety lead by phone.',
  'Call the next of kin listed in the emergency contacts.',
  'Request an ambulance if a medical emergency is indicated.',
] as const;
export const INSTRUCTION_CONTACT_ROLES = ['Line manager', 'Duty manager', 'On-call officer', 'Safety lead', 'Team leader', 'Site security'] as const;
export const SPECIAL_INSTRUCTIONS = [
  'User may be visiting clients alone in the evening; treat silent alarms as genuine.',
  'User has a hearing impairment: prefer SMS contact.',
  'Do not call the user back on a covert alarm; listen in first.',
  'If the user says "I need my red folder", request police immediately.',
  'Key holder for site: contact the duty manager for access codes.',
  'User works in areas with poor signal; allow extra time for callbacks.',
  'Known aggressive client at visit addresses flagged in memos.',
  'Customer requests an e-mail summary of every genuine incident.',
] as const;
export const DURESS_WORDS = ['bluebell', 'red kite', 'blue folder', 'pineapple', 'auntie Sue', 'the yellow van', 'Oxford', 'granite', 'lemon tart', 'the blue file'] as const;

export const MEMO_ACTIVITIES = [
  'Home visit', 'Tenancy inspection', 'Client meeting', 'Site inspection', 'Meter reading round', 'Night patrol',
  'Lock-up check', 'Key holding response', 'Community visit', 'Property viewing', 'Repair appointment', 'Care visit',
] as const;
export const MEMO_TEXTS = [
  'Visiting tenant at flat 3, entrance at the rear of the building.',
  'Client has a dog; will ring ahead.',
  'Meeting with a new client, no previous history.',
  'Parking in the side street, silver car.',
  'Second visit this week; previous visit was difficult.',
  'Gate code 4812, lone visit to the plant room.',
  'Inspection of empty property, no phone signal in the basement.',
  'Will call the office when finished.',
] as const;

export const W3W_WORDS = [
  'apple', 'river', 'table', 'lamp', 'crown', 'meadow', 'silver', 'candle', 'orbit', 'harbour', 'kettle', 'puzzle',
  'glove', 'lemon', 'marble', 'noble', 'oyster', 'pencil', 'quartz', 'rocket', 'saddle', 'thunder', 'velvet', 'walnut',
  'yonder', 'zebra', 'anchor', 'bridge', 'copper', 'dolphin', 'ember', 'feather', 'garden', 'hollow', 'island',
  'jigsaw', 'kernel', 'ladder', 'mirror', 'needle', 'otter', 'pepper', 'quiver', 'ribbon', 'shadow', 'timber',
  'umbrella', 'valley', 'whistle', 'yellow', 'acorn', 'basket', 'cobble', 'dragon', 'engine', 'falcon', 'ginger',
  'hazel', 'igloo', 'jacket', 'kitten', 'lantern', 'magnet', 'nectar', 'olive', 'parcel', 'rabbit', 'sprout',
  'tulip', 'urban', 'vivid', 'wander', 'cradle', 'shelf', 'trumpet', 'blanket', 'spoon', 'carpet', 'pillow', 'biscuit',
] as const;

export const SUPPORT_ISSUES = [
  'Device reported low battery during the alarm.',
  'Audio was one-way on the alarm call.',
  'Location was more than 500 m from the reported address.',
  'Device did not register the end of the alarm.',
  'Customer contact number was out of service.',
] as const;
export const NOTE_TEXTS = [
  'Reviewed the call recording: the controller followed the escalation plan.',
  'Police URN obtained and passed to the customer.',
  'Called the user the next day; they confirmed they were safe.',
  'User reminded how to cancel an accidental activation.',
  'Customer informed of the incident by e-mail.',
  'Escalation contact did not answer; customer asked to update the plan.',
  'Quality check complete, no further action.',
  'Device sent for inspection after repeated false alarms.',
] as const;
export const ALARM_NOTICES = [
  'User is visiting a high-risk address this week: treat all alarms as genuine.',
  'Line manager on annual leave; escalate to the duty manager.',
  'User working a night shift at the depot until 06:00.',
  'Temporary change of work address due to office refurbishment.',
] as const;

export const ACCOUNT_MANAGERS = [
  'Hannah Whitfield', 'Marcus Doyle', 'Priya Raman', 'Gareth Lloyd', 'Sophie Marsh', 'Daniel Okoro', 'Emma Kilbride',
  'Tom Ashworth', 'Rachel Byrne', 'Stuart Fenwick', 'Laura Pennington', 'Imran Siddiqui',
] as const;
export const SUCCESS_MANAGERS = [
  'Chloe Hargreaves', 'James Thornton', 'Aisha Begum', 'Owen Prothero', 'Fiona MacLeod', 'Ben Castle', 'Naomi Fraser',
  'Liam Gallagher', 'Zoe Whitaker', 'Ryan Holt',
] as const;

export const DEVICE_SUPPLIERS: Record<number, readonly string[]> = {
  3: ['Customer supplied'],
  10: ['Connexion Distribution Ltd', 'SafeLink Supplies'],
  15: ['Eview Group', 'Connexion Distribution Ltd'],
  20: ['Twig Com', 'SafeLink Supplies'],
  30: ['Northgate Telematics'],
  42: ['Badge Tech UK'],
  52: ['Badge Tech UK'],
  60: ['Northgate Telematics'],
  70: ['Connexion Distribution Ltd'],
  140: ['Badge Tech UK', 'Connexion Distribution Ltd'],
  370: ['Connexion Distribution Ltd'],
  400: ['Garmin (Europe) Ltd'],
  620: ['SafeLink Supplies'],
  621: ['SafeLink Supplies', 'Connexion Distribution Ltd'],
  640: ['SafeLink Supplies', 'Connexion Distribution Ltd', 'Northgate Telematics'],
  740: ['SafeLink Supplies'],
  750: ['SafeLink Supplies', 'Connexion Distribution Ltd'],
  803: ['Globalstar Europe'],
  804: ['Globalstar Europe'],
  810: ['Globalstar Europe'],
};

/** The alarm receiving centre's inbound number devices call (a UK 03 number). */
export const ARC_NUMBER = '+443301234567';
