import { getMetadataStorage } from 'class-validator';

type Metadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>;
type Lookup = ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas'];
type Grouping = ReturnType<typeof getMetadataStorage>['groupByPropertyName'];

let installed = false;

/**
 * class-validator looks a class's rules up afresh on every validation, for the object and each
 * nested one, by walking every decorated class it knows with an `instanceof` each: with a few
 * hundred DTO and message classes that walk was most of what validating a request cost. The
 * rules only change when a decorated class is defined, so the lookups (and their grouping by
 * property) are remembered until a rule is registered again. Installed once per process, on the
 * storage every `validate` call uses.
 */
export function rememberValidationMetadata(): void {
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage();
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group: Grouping = storage.groupByPropertyName.bind(storage);
  const register = storage.addValidationMetadata.bind(storage);
  let lookups = new WeakMap<object, Map<string, Metadata>>();
  let groupings = new WeakMap<Metadata, ReturnType<Grouping>>();

  storage.addValidationMetadata = (metadata) => {
    lookups = new WeakMap();
    groupings = new WeakMap();
    register(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byOptions = lookups.get(target);
    if (byOptions === undefined) lookups.set(target, (byOptions = new Map()));
    let found = byOptions.get(key);
    if (found === undefined)
      byOptions.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let grouped = groupings.get(metadata);
    if (grouped === undefined) groupings.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
}
