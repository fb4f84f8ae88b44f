import twitterText, { type ParseTweetOptions } from 'twitter-text';

/** twitter-text's own v3 configuration (weights per range, emoji parsing, URLs as 23). */
const version3 = (twitterText as unknown as { configs: { version3: ParseTweetOptions } }).configs.version3;

/**
 * The weighted length X checks a post against: twitter-text v3, where most Latin text weighs 1,
 * CJK and emoji weigh 2, and every URL counts as 23 whatever its length. Browser-safe: the
 * composer's counter and validation both call this one function.
 */
export function xWeightedLength(text: string): number {
  return twitterText.parseTweet(text, version3).weightedLength;
}
