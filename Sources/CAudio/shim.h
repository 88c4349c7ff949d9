// C glue for what Swift cannot import from libopus and FFmpeg directly:
// the variadic `opus_*_ctl` requests and the function-like `AVERROR` macros.
#ifndef PONGD_CAUDIO_SHIM_H
#define PONGD_CAUDIO_SHIM_H

#include <errno.h>
#include <opus/opus.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/mem.h>
#include <libavutil/samplefmt.h>
#include <libavutil/tx.h>

// MARK: Opus encoder controls

static inline int pong_opus_encoder_set_bitrate(OpusEncoder *enc, opus_int32 bitsPerSecond) {
    return opus_encoder_ctl(enc, OPUS_SET_BITRATE(bitsPerSecond));
}

static inline int pong_opus_encoder_set_complexity(OpusEncoder *enc, opus_int32 complexity) {
    return opus_encoder_ctl(enc, OPUS_SET_COMPLEXITY(complexity));
}

static inline int pong_opus_encoder_set_signal_music(OpusEncoder *enc) {
    return opus_encoder_ctl(enc, OPUS_SET_SIGNAL(OPUS_SIGNAL_MUSIC));
}

static inline int pong_opus_encoder_get_lookahead(OpusEncoder *enc, opus_int32 *samples) {
    return opus_encoder_ctl(enc, OPUS_GET_LOOKAHEAD(samples));
}

// MARK: Opus decoder controls

static inline int pong_opus_decoder_get_last_packet_duration(OpusDecoder *dec, opus_int32 *samples) {
    return opus_decoder_ctl(dec, OPUS_GET_LAST_PACKET_DURATION(samples));
}

static inline int pong_opus_decoder_reset(OpusDecoder *dec) {
    return opus_decoder_ctl(dec, OPUS_RESET_STATE);
}

// MARK: FFmpeg error codes

static inline int pong_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int pong_averror_eof(void) { return AVERROR_EOF; }
static inline int pong_averror_invalid_data(void) { return AVERROR_INVALIDDATA; }

static inline int pong_av_input_buffer_padding_size(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }

#endif
