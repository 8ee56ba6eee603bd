// A seeded random generator for the benchmarks' data (xorshift32), so two runs seed the same data and
// their figures compare; and the customer names the shop-like data is drawn from.
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const rand = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  /** One of `list`, each as likely as its weight. */
  const weighted = <T>(list: readonly T[], weights: readonly number[]) => {
    const sum = weights.reduce((a, b) => a + b, 0);
    let r = rand() * sum;
    for (let i = 0; i < list.length; i++) {
      r -= weights[i];
      if (r < 0) return list[i];
    }
    return list[list.length - 1];
  };
  return { rand, pick, weighted };
}

export const firstNames = [
  'James',
  'Maria',
  'Robert',
  'Linda',
  'Michael',
  'Sarah',
  'David',
  'Karen',
  'Daniel',
  'Nancy',
  'Carlos',
  'Aisha',
  'Wei',
  'Olga',
  'Tom',
  'Grace',
  'Luis',
  'Emma',
  'Noah',
  'Zoe',
];
export const lastNames = [
  'Smith',
  'Johnson',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  "O'Brien",
  'Nguyen',
  'Kowalski',
  'Schmidt',
];
