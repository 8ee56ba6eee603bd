// The shipping address a profile keeps and the lookup gives back: the address fields only (no stray
// subdocument fields), line2 as '' when the order had none (the form's shape).
export interface SavedAddress {
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

type AddressLike = Omit<SavedAddress, 'line2'> & { line2?: string | null };

export function savedAddressOf(address: AddressLike | null | undefined): SavedAddress | null {
  if (!address) return null;
  const { line1, line2, city, state, postalCode, country } = address;
  return { line1, line2: line2 ?? '', city, state, postalCode, country };
}
