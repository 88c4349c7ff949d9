// Debian's libqrencode (libqrencode-dev): QR code symbols for the session join URL (GET /sessions/{code}/qr.svg).
#ifndef PONGD_CQRENCODE_SHIM_H
#define PONGD_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
