// The access table now lives in @shop/contracts (admin-access.ts), so the services enforce the same
// rows on the gateway's signed identity; the gateway's modules keep importing it from here.
export {
  ACCESS_RULES,
  accessFor,
  accessOfUrl,
  accessRuleFor,
  canonicalPath,
  patternMatches,
  ruleLabel,
  targetIdOf,
  type AccessLevel as Access,
  type AccessRule,
  type AccessMethod as Method,
} from '@shop/contracts';
