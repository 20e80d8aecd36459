/** class-transformer's metadata (its @Type, @Transform, @Expose rules), read by `validateFast`. */
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
