// MongoDB's `$jsonSchema` (JSON Schema draft 4 plus `bsonType`), for collection validators and queries. Each
// keyword only constrains values of the type it is about, as in JSON Schema: `minimum` ignores strings, and a
// property that is absent is only an error when `required` names it.
import type { Document } from 'bson';
import {
  TYPE_ALIASES,
  bsonTypeOf,
  getField,
  compareValues,
  isNumeric,
  isPlainObject,
  numberOf,
  valuesEqual,
} from './bson-values.js';
import { badValue } from './errors.js';

export type SchemaTest = (value: unknown) => boolean;

/** JSON Schema's `type` names mapped to BSON types (`integer` is not one MongoDB accepts). */
const JSON_TYPES: Record<string, string[]> = {
  object: ['object'],
  array: ['array'],
  number: ['double', 'int', 'long', 'decimal'],
  boolean: ['bool'],
  string: ['string'],
  null: ['null'],
};

const IGNORED = new Set(['title', 'description', '$comment', 'default', 'examples', 'id', '$schema', 'definitions']);

const names = (spec: unknown, table: Record<string, string[]>, keyword: string): Set<string> => {
  const out = new Set<string>();
  for (const n of Array.isArray(spec) ? spec : [spec]) {
    const types = typeof n === 'string' ? (getField(table, n) as string[] | undefined) : undefined;
    if (!types) throw badValue(`Unknown type name alias: ${String(n)} in $jsonSchema keyword '${keyword}'`);
    types.forEach((t) => out.add(t));
  }
  return out;
};

const count = (spec: Document, keyword: string): number => {
  const v = spec[keyword];
  if (!isNumeric(v) || numberOf(v) < 0 || !Number.isInteger(numberOf(v)))
    throw badValue(`$jsonSchema keyword '${keyword}' must be a non-negative integer`);
  return numberOf(v);
};

/** Compiles a `$jsonSchema` document; throws BadValue for keywords MongoDB does not accept. */
export const compileSchema = (spec: unknown): SchemaTest => {
  if (!isPlainObject(spec)) throw badValue('$jsonSchema must be an object');
  const tests: SchemaTest[] = [];
  const typed = (types: string[], test: (v: unknown) => boolean) => {
    const set = new Set(types);
    tests.push((v) => !set.has(bsonTypeOf(v)) || test(v));
  };
  for (const keyword of Object.keys(spec)) {
    const arg = spec[keyword];
    switch (keyword) {
      case 'bsonType': {
        const allowed = names(arg, TYPE_ALIASES, keyword);
        tests.push((v) => allowed.has(bsonTypeOf(v)));
        break;
      }
      case 'type': {
        const allowed = names(arg, JSON_TYPES, keyword);
        tests.push((v) => allowed.has(bsonTypeOf(v)));
        break;
      }
      case 'enum':
        if (!Array.isArray(arg) || arg.length === 0)
          throw badValue("$jsonSchema keyword 'enum' must be a non-empty array");
        tests.push((v) => arg.some((e) => valuesEqual(e, v)));
        break;
      case 'minimum':
      case 'maximum': {
        const exclusive = spec[keyword === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true;
        const sign = keyword === 'minimum' ? 1 : -1;
        typed(JSON_TYPES.number, (v) => {
          const c = compareValues(v, arg) * sign;
          return exclusive ? c > 0 : c >= 0;
        });
        break;
      }
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        break;
      case 'multipleOf':
        typed(JSON_TYPES.number, (v) => numberOf(v) % numberOf(arg) === 0);
        break;
      case 'minLength':
      case 'maxLength': {
        const n = count(spec, keyword);
        typed(['string'], (v) => {
          const len = [...(v as string)].length;
          return keyword === 'minLength' ? len >= n : len <= n;
        });
        break;
      }
      case 'pattern': {
        if (typeof arg !== 'string') throw badValue("$jsonSchema keyword 'pattern' must be a string");
        const re = new RegExp(arg, 'u');
        typed(['string'], (v) => re.test(v as string));
        break;
      }
      case 'required': {
        if (!Array.isArray(arg) || arg.some((f) => typeof f !== 'string'))
          throw badValue("$jsonSchema keyword 'required' must be an array of strings");
        typed(['object'], (v) => arg.every((f: string) => getField(v as Document, f) !== undefined));
        break;
      }
      case 'properties': {
        if (!isPlainObject(arg)) throw badValue("$jsonSchema keyword 'properties' must be an object");
        const props = Object.entries(arg).map(([name, s]) => [name, compileSchema(s)] as const);
        typed(['object'], (v) =>
          props.every(
            ([name, test]) => getField(v as Document, name) === undefined || test(getField(v as Document, name)),
          ),
        );
        break;
      }
      case 'patternProperties': {
        if (!isPlainObject(arg)) throw badValue("$jsonSchema keyword 'patternProperties' must be an object");
        const pats = Object.entries(arg).map(([p, s]) => [new RegExp(p, 'u'), compileSchema(s)] as const);
        typed(['object'], (v) =>
          Object.keys(v as Document).every((k) => pats.every(([re, test]) => !re.test(k) || test((v as Document)[k]))),
        );
        break;
      }
      case 'additionalProperties': {
        const declared = new Set(Object.keys(isPlainObject(spec.properties) ? spec.properties : {}));
        const patterns = Object.keys(isPlainObject(spec.patternProperties) ? spec.patternProperties : {}).map(
          (p) => new RegExp(p, 'u'),
        );
        const extra = (k: string) => !declared.has(k) && !patterns.some((re) => re.test(k));
        if (arg === false) typed(['object'], (v) => Object.keys(v as Document).every((k) => !extra(k)));
        else if (arg !== true) {
          const test = compileSchema(arg);
          typed(['object'], (v) => Object.keys(v as Document).every((k) => !extra(k) || test((v as Document)[k])));
        }
        break;
      }
      case 'minProperties':
      case 'maxProperties': {
        const n = count(spec, keyword);
        typed(['object'], (v) => {
          const len = Object.keys(v as Document).length;
          return keyword === 'minProperties' ? len >= n : len <= n;
        });
        break;
      }
      case 'dependencies': {
        if (!isPlainObject(arg)) throw badValue("$jsonSchema keyword 'dependencies' must be an object");
        const deps = Object.entries(arg).map(
          ([name, d]) =>
            [
              name,
              Array.isArray(d)
                ? (o: Document) => d.every((f) => getField(o, f) !== undefined)
                : (
                    (t: SchemaTest) => (o: Document) =>
                      t(o)
                  )(compileSchema(d)),
            ] as const,
        );
        typed(['object'], (v) =>
          deps.every(([name, test]) => getField(v as Document, name) === undefined || test(v as Document)),
        );
        break;
      }
      case 'items': {
        if (Array.isArray(arg)) {
          const each = arg.map(compileSchema);
          const rest = spec.additionalItems;
          const restTest =
            rest === undefined || rest === true ? () => true : rest === false ? () => false : compileSchema(rest);
          typed(['array'], (v) => (v as unknown[]).every((x, i) => (i < each.length ? each[i](x) : restTest(x))));
        } else {
          const test = compileSchema(arg);
          typed(['array'], (v) => (v as unknown[]).every(test));
        }
        break;
      }
      case 'additionalItems':
        break;
      case 'minItems':
      case 'maxItems': {
        const n = count(spec, keyword);
        typed(['array'], (v) => (keyword === 'minItems' ? (v as unknown[]).length >= n : (v as unknown[]).length <= n));
        break;
      }
      case 'uniqueItems':
        if (arg === true)
          typed(['array'], (v) => (v as unknown[]).every((x, i, a) => a.findIndex((y) => valuesEqual(x, y)) === i));
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf': {
        if (!Array.isArray(arg) || arg.length === 0)
          throw badValue(`$jsonSchema keyword '${keyword}' must be a non-empty array`);
        const subs = arg.map(compileSchema);
        if (keyword === 'allOf') tests.push((v) => subs.every((t) => t(v)));
        else if (keyword === 'anyOf') tests.push((v) => subs.some((t) => t(v)));
        else tests.push((v) => subs.filter((t) => t(v)).length === 1);
        break;
      }
      case 'not': {
        const t = compileSchema(arg);
        tests.push((v) => !t(v));
        break;
      }
      default:
        if (IGNORED.has(keyword)) break;
        throw badValue(`Unknown $jsonSchema keyword: ${keyword}`);
    }
  }
  if (spec.bsonType !== undefined && spec.type !== undefined)
    throw badValue("Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
  return (v) => tests.every((t) => t(v));
};
