import sdk from './index.cjs';

export const SlashSDK = sdk.SlashSDK;
export default SlashSDK;
