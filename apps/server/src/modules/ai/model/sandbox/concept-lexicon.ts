/**
 * The sandbox embedding's notion of meaning (docs/decisions/0027): groups of everyday Spanish words a small business
 * and its customers use for the same thing, so "¿cuánto sale?" lands near "precio" and "¿mandan a domicilio?" near
 * "envíos". Written from general knowledge of how shops, salons, clinics and restaurants talk about their service;
 * each word is matched by its light stem, so listing one form of a word covers its plural and most verb forms. It is
 * small and knows nothing outside these topics: a real model's embeddings are what understands language.
 */
export const CONCEPTS: Record<string, string> = {
  horario: `horario hora abrir abren abrimos abre abierto abierta cerrar cierran cierra cerramos cerrado cerrada atender atienden
    atendemos atencion lunes martes miercoles jueves viernes sabado domingo feriado festivo semana temprano madrugada
    mediodia noche apertura cierre jornada turno`,
  ubicacion: `direccion ubicacion ubicado ubicada ubicados donde calle avenida local sucursal tienda llegar mapa esquina colonia
    barrio piso edificio centro comercial estacionamiento cerca zona referencia ciudad`,
  envio: `envio enviar envian enviamos despacho despachar despachan entrega entregar entregan entregamos delivery domicilio
    mandar mandan mandamos paqueteria courier repartidor reparto flete correo transportadora recoger retiro retirar
    guia rastreo seguimiento`,
  plazo: `tarda tardan tardar demora demoran demorar plazo habil habiles rapido pronto urgente express llega llegan`,
  precio: `precio costo cuesta cuestan costar sale salen vale valen valor cobran cobrar cobro tarifa barato caro economico cotizacion
    presupuesto pesos dolares soles euros monto importe cargo`,
  pago: `pago pagar pagan pagamos tarjeta credito debito transferencia efectivo deposito cuota cuotas contado
    mercadopago paypal billetera qr sinpe nequi yape link abono adelanto anticipo sena`,
  factura: `factura facturar facturacion comprobante boleta recibo ticket fiscal impuesto iva`,
  devolucion: `devolucion devolver devuelven reembolso reembolsar reintegro cambio cambiar cambian reclamo arrepentimiento
    retracto`,
  garantia: `garantia defecto defectuoso falla fallo roto rota reparacion reparar arreglo arreglar tecnico cobertura`,
  reserva: `reserva reservar reservacion cita agendar agenda turno apartar cupo disponibilidad disponible mesa
    consulta sesion`,
  cancelacion: `cancelar cancelacion anular reprogramar posponer suspender inasistencia`,
  contacto: `telefono whatsapp correo email mail llamar llamada contacto escribir mensaje redes instagram facebook`,
  promocion: `descuento promocion oferta cupon rebaja liquidacion combo paquete gratis regalo beneficio`,
  existencia: `stock existencia agotado inventario talla tallas color colores medida tamano`,
  requisito: `requisito requisitos documento documentos identificacion cedula dni pasaporte receta edad`,
  mascota: `mascota mascotas perro perros gato gatos`,
};
