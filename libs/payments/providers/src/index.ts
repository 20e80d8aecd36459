export * from './payment-provider';
export * from './live-providers';
export { WaveProvider } from './wave/wave-provider';
export {
  parseWaveSignatureHeader,
  verifyWaveSignature,
  waveSignature,
  WAVE_SIGNATURE_TOLERANCE_SECONDS,
} from './wave/wave-signature';
export {
  OrangeMoneyProvider,
  ORANGE_MONEY_QR_VALIDITY_SECONDS,
} from './orange-money/orange-money-provider';
