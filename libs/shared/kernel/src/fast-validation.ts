import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage as transformerStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationTypes, type ValidationArguments } from 'class-validator';

/**
 * What `plainToInstance` then `validate` give for a payload that passes, without their cost.
 *
 * Measured in the running service, class-transformer and class-validator took about a quarter of
 * a payment creation (the HTTP body, then the bus message) and a tenth of a payment read: they
 * look every rule up again, build an error object for every property, valid or not, and leave a
 * lot of garbage. A payload that passes needs none of that. This walks the same rules (read from
 * the two libraries' own metadata, and checked by their own constraint objects) over plain JSON
 * data, and builds the same instance.
 *
 * It answers only when it is sure: `undefined` whenever the payload fails a rule (the libraries
 * then run, and word the errors as before), or holds anything beyond plain data (a Date, a Map, a
 * `__proto__` key...), or the class uses a feature this does not follow
 * (@Expose, @Exclude, @Transform, discriminators, async or promise validation, Set or Map
 * properties). The caller then takes the slow path, so every answer is the libraries' own.
 */
export interface FastValidationOptions {
  /**
   * A property no rule names: `strip` drops it (`whitelist`), `refuse` makes the payload fail
   * (`forbidNonWhitelisted`).
   */
  unknownProperties: 'strip' | 'refuse';
  /** class-transformer's `exposeDefaultValues`: an undefined property keeps the class's default. */
  exposeDefaultValues: boolean;
}

/** A class, as the two libraries key their rules. */
type AnyClass = abstract new (...args: never[]) => unknown;
type Metadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];
type Constraint = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidatorConstraints']
>[number];

/** One property's rules, as class-validator applies them. */
interface PropertyRules {
  name: string;
  /** @IsOptional, @ValidateIf: the property is checked only when every one says so. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  checks: Array<{ metadata: Metadata; constraints: Constraint[] }>;
  /**
   * One entry per @ValidateNested: the name of the class declaring it, under which class-validator
   * looks the nested object's rules up.
   */
  nestedIn: string[];
}

/** A class's validation: its rules, and the properties any rule names (the whitelist). */
interface ValidationPlan {
  properties: PropertyRules[];
  allowed: Set<string>;
}

/** How class-transformer builds one property of an instance of the class. */
interface PropertyShape {
  /** `@Type(() => X)`: called the way class-transformer calls it. */
  type?: (options: { newObject: object; object: object; property: string }) => unknown;
  /** A getter or method of the class: class-transformer leaves it alone. */
  skipped: boolean;
}

/** How class-transformer builds an instance of the class: one shape per property with rules. */
type TransformPlan = Map<string, PropertyShape>;

/** A payload, or part of one, the fast path does not vouch for. */
const UNSURE = Symbol('unsure');

const validatorStorage = getMetadataStorage();

let validationPlans = new WeakMap<AnyClass, Map<string, ValidationPlan | null>>();
let transformPlans = new WeakMap<AnyClass, TransformPlan | null>();
let installed = false;

/** Plans are rebuilt after any rule is registered (a class defined after a first validation). */
function watchRuleChanges(): void {
  if (installed) return;
  installed = true;
  const forget = () => {
    validationPlans = new WeakMap();
    transformPlans = new WeakMap();
  };
  const addValidation = validatorStorage.addValidationMetadata.bind(validatorStorage);
  validatorStorage.addValidationMetadata = (metadata) => {
    forget();
    addValidation(metadata);
  };
  const addConstraint = validatorStorage.addConstraintMetadata.bind(validatorStorage);
  validatorStorage.addConstraintMetadata = (metadata) => {
    forget();
    addConstraint(metadata);
  };
  for (const method of [
    'addTypeMetadata',
    'addTransformMetadata',
    'addExposeMetadata',
    'addExcludeMetadata',
  ] as const) {
    const add = transformerStorage[method].bind(transformerStorage) as (metadata: never) => void;
    transformerStorage[method] = ((metadata: never) => {
      forget();
      add(metadata);
    }) as never;
  }
}

/**
 * The instance `plainToInstance(Class, payload)` followed by a passing validation would give
 * (with class-validator's `whitelist` and `forbidUnknownValues`), or `undefined`: take the slow
 * path.
 */
export function validateFast<T extends object>(
  Class: new () => T,
  payload: unknown,
  options: FastValidationOptions,
): T | undefined {
  watchRuleChanges();
  if (!isDataObject(payload)) return undefined;
  const instance = toInstance(Class, payload, options);
  if (instance === UNSURE || !passes(instance, undefined, options)) return undefined;
  return instance as T;
}

// ---- class-transformer's plainToInstance, for plain JSON data ----

function toInstance(
  Class: AnyClass,
  source: object,
  options: FastValidationOptions,
): object | typeof UNSURE {
  const shapes = transformPlanOf(Class);
  if (shapes === null) return UNSURE;
  const instance = new (Class as new () => object)();
  const values = source as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (key in Object.prototype) return UNSURE; // __proto__, constructor, toString...
    const shape = shapes.get(key);
    const value = values[key];
    if (shape === undefined) {
      // No rule names it: it cannot stay (stripped, or the payload fails). Plain data is dropped
      // the same by both paths; anything else is left to the libraries.
      if (options.unknownProperties === 'refuse' || hasTransformRules(Class, key)) return UNSURE;
      if (copyValue(value, undefined, options) === UNSURE) return UNSURE;
      continue;
    }
    const target = instance as Record<string, unknown>;
    if (shape.skipped || target[key] instanceof Function) continue;
    if (value === undefined && options.exposeDefaultValues) {
      target[key] = target[key]; // the default, or an own undefined, as class-transformer leaves it
      continue;
    }
    const type = shape.type?.({ newObject: instance, object: source, property: key });
    const copy = copyValue(value, type, options);
    if (copy === UNSURE) return UNSURE;
    target[key] = copy;
  }
  return instance;
}

/** class-transformer's `transform` of one value, in the cases plain JSON data can take. */
function copyValue(value: unknown, type: unknown, options: FastValidationOptions): unknown {
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    let unsure = false;
    // forEach, as class-transformer: a hole is skipped, not copied as undefined.
    value.forEach((item) => {
      const itemCopy = unsure ? UNSURE : copyValue(item, type, options);
      if (itemCopy === UNSURE) unsure = true;
      else copy.push(itemCopy);
    });
    return unsure ? UNSURE : copy;
  }
  if (type === Date || type === Buffer) return UNSURE;
  if (type === String || type === Number || type === Boolean) {
    return value === null || value === undefined ? value : (type as (v: unknown) => unknown)(value);
  }
  if (typeof value !== 'object' || value === null) return value;
  // Into a class, any object gives its own enumerable properties (a DTO instance as well as
  // parsed JSON); without one, class-transformer would copy a non-plain object as its own class.
  if (typeof type === 'function' && type !== Object) {
    return isDataObject(value) ? toInstance(type as AnyClass, value, options) : UNSURE;
  }
  if (!isPlainObject(value)) return UNSURE;
  if (type !== undefined && type !== Object) return UNSURE;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key in Object.prototype) return UNSURE;
    const item = copyValue((value as Record<string, unknown>)[key], undefined, options);
    if (item === UNSURE) return UNSURE;
    copy[key] = item;
  }
  return copy;
}

function transformPlanOf(Class: AnyClass): TransformPlan | null {
  let plan = transformPlans.get(Class);
  if (plan === undefined) transformPlans.set(Class, (plan = buildTransformPlan(Class)));
  return plan;
}

function buildTransformPlan(Class: AnyClass): TransformPlan | null {
  if (
    transformerStorage.getStrategy(Class) !== 'none' ||
    transformerStorage.getExposedMetadatas(Class).length > 0 ||
    transformerStorage.getExcludedMetadatas(Class).length > 0
  ) {
    return null;
  }
  const plan: TransformPlan = new Map();
  for (const name of namesWithRules(Class)) {
    if (
      transformerStorage.findTransformMetadatas(Class, name, TransformationType.PLAIN_TO_CLASS)
        .length > 0
    ) {
      return null;
    }
    const typed = transformerStorage.findTypeMetadata(Class, name);
    if (typed !== undefined) {
      const reflected: unknown = typed.reflectedType;
      if (typed.options?.discriminator || reflected === Set || reflected === Map) return null;
      if (typed.typeFunction === undefined) return null;
    }
    const descriptor = Object.getOwnPropertyDescriptor(Class.prototype, name);
    plan.set(name, {
      type: typed?.typeFunction as PropertyShape['type'],
      skipped: descriptor !== undefined && descriptor.set === undefined,
    });
  }
  return plan;
}

/** Every property some validation rule of the class names (its whitelist). */
function namesWithRules(Class: AnyClass): string[] {
  const rules = validatorStorage.getTargetValidationMetadatas(
    Class,
    undefined as unknown as string,
    false,
    false,
    undefined,
  );
  return Object.keys(validatorStorage.groupByPropertyName(rules));
}

function hasTransformRules(Class: AnyClass, key: string): boolean {
  return (
    transformerStorage.findTypeMetadata(Class, key) !== undefined ||
    transformerStorage.findTransformMetadatas(Class, key, TransformationType.PLAIN_TO_CLASS)
      .length > 0
  );
}

// ---- class-validator's execute, for an answer of "passes" ----

/** class-validator's ValidationExecutor.execute, reduced to pass or not (stripping as it does). */
function passes(
  object: object,
  schema: string | undefined,
  options: FastValidationOptions,
): boolean {
  const plan = validationPlanOf(object.constructor as AnyClass, schema);
  if (plan === null) return false; // no rules: forbidUnknownValues fails it
  const record = object as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (plan.allowed.has(key)) continue;
    if (options.unknownProperties === 'refuse') return false;
    delete record[key];
  }
  for (const property of plan.properties) {
    const value = record[property.name];
    if (!property.conditions.every((condition) => condition(object, value))) continue;
    for (const { metadata, constraints } of property.checks) {
      if (metadata.validateIf && !metadata.validateIf(object, value)) continue;
      const args: ValidationArguments = {
        targetName: object.constructor.name,
        property: metadata.propertyName,
        object,
        value,
        constraints: metadata.constraints,
      };
      const values = metadata.each && Array.isArray(value) ? value : [value];
      for (const constraint of constraints) {
        for (const item of values) {
          const valid: unknown = constraint.instance.validate(item, args);
          if (valid !== true && (!valid || isThenable(valid))) return false;
        }
      }
    }
    for (const schema of property.nestedIn) {
      if (!nestedPasses(value, schema, options)) return false;
    }
  }
  return true;
}

/** class-validator's nestedValidations: arrays item by item, objects by their own class's rules. */
function nestedPasses(value: unknown, schema: string, options: FastValidationOptions): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.every((item) => nestedPasses(item, schema, options));
  return value instanceof Object && passes(value, schema, options);
}

function validationPlanOf(Class: AnyClass, schema: string | undefined): ValidationPlan | null {
  let bySchema = validationPlans.get(Class);
  if (bySchema === undefined) validationPlans.set(Class, (bySchema = new Map()));
  const key = schema ?? '';
  let plan = bySchema.get(key);
  if (plan === undefined) bySchema.set(key, (plan = buildValidationPlan(Class, schema)));
  return plan;
}

function buildValidationPlan(Class: AnyClass, schema: string | undefined): ValidationPlan | null {
  const rules = validatorStorage.getTargetValidationMetadatas(
    Class,
    schema as string,
    false,
    false,
    undefined,
  );
  if (rules.length === 0) return null;
  const grouped = validatorStorage.groupByPropertyName(rules);
  const properties: PropertyRules[] = [];
  for (const [name, metadatas] of Object.entries(grouped)) {
    const property: PropertyRules = { name, conditions: [], checks: [], nestedIn: [] };
    for (const metadata of metadatas) {
      switch (metadata.type) {
        case ValidationTypes.CONDITIONAL_VALIDATION:
          property.conditions.push(metadata.constraints[0]);
          break;
        case ValidationTypes.CUSTOM_VALIDATION:
        case ValidationTypes.IS_DEFINED: {
          const constraints = validatorStorage.getTargetValidatorConstraints(
            metadata.constraintCls,
          );
          if (constraints.some((constraint) => constraint.async)) return null;
          property.checks.push({ metadata, constraints });
          break;
        }
        case ValidationTypes.NESTED_VALIDATION:
          property.nestedIn.push(
            typeof metadata.target === 'string' ? metadata.target : metadata.target.name,
          );
          break;
        case ValidationTypes.WHITELIST:
          break;
        default:
          return null; // promise validation, or a kind this does not know
      }
    }
    properties.push(property);
  }
  const allowed = new Set(
    Object.entries(grouped)
      .filter(([, metadatas]) => metadatas.length > 0)
      .map(([name]) => name),
  );
  return { properties, allowed };
}

// ---- helpers ----

/**
 * An object whose own properties are its data, as class-transformer reads an object it builds a
 * class from: not an array, and none of the values it treats apart (Date, Buffer, Map, Set,
 * promise) nor other built-ins with hidden state.
 */
function isDataObject(value: unknown): value is object {
  if (isPlainObject(value)) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (isThenable(value) || ArrayBuffer.isView(value)) return false;
  return !BUILT_INS.some((builtIn) => value instanceof builtIn);
}

const BUILT_INS = [Date, Map, Set, WeakMap, WeakSet, ArrayBuffer, RegExp, Error];

/** An object literal or parsed JSON object (prototype Object.prototype or null). */
function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isThenable(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
